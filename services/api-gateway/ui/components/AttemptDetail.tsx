import type { managementOperations, ResponseOf } from '@hookrail/api-contract';
import { DataTable } from './DataTable';
import { attemptOutcome, prettyJson, when } from './format';
import { PayloadHidden, useSeesPayloads } from './grants';
import { JsonView } from './JsonView';
import type { Attempt } from './types';

/** The body a delivery's attempts sent, as the API reads it back (capped; not stored per attempt). */
export type SentBody = Partial<
  Pick<ResponseOf<typeof managementOperations.getEventDelivery>, 'request_body' | 'request_body_truncated'>
>;

/** A JSON body pretty-printed, any other text as it is. */
function bodyText(body: string): string {
  try {
    return prettyJson(JSON.parse(body));
  } catch {
    return body;
  }
}

/** The request body: the same for every attempt of a delivery. */
function RequestBody({ sent }: { sent: SentBody }) {
  const seesPayloads = useSeesPayloads();
  if (sent.request_body === undefined) return null;
  if (!seesPayloads) return <PayloadHidden />;
  return (
    <div class="request-body">
      <strong>Request body</strong>
      <JsonView text={sent.request_body === '' ? '(empty)' : bodyText(sent.request_body)} />
      {sent.request_body_truncated && <p class="muted">Truncated: only the first 64 KiB are shown.</p>}
    </div>
  );
}

/** One delivery attempt: what was sent and what came back (or why nothing did). */
function AttemptDetail({ attempt: a, number, sent }: { attempt: Attempt; number: number; sent: SentBody }) {
  const seesPayloads = useSeesPayloads();
  return (
    <section class="card attempt" aria-label={`Attempt ${number}`}>
      <h3>
        Attempt {number} · {when(a.created_at)} · {attemptOutcome(a)} · {Math.round(a.latency_ms)} ms
      </h3>
      {a.error && a.http_status !== null ? <div class="alert">Error: {a.error}</div> : null}
      <p class="mono">
        {a.method} {a.url}
      </p>
      <div class="grid">
        <div>
          <strong>Request headers</strong>
          <JsonView value={a.request_http_header} />
        </div>
        <div>
          <strong>Response headers</strong>
          <JsonView value={a.response_http_header} />
        </div>
      </div>
      <RequestBody sent={sent} />
      <strong>Response body</strong>
      {seesPayloads ? <JsonView text={a.response_data || '(empty)'} /> : <PayloadHidden />}
    </section>
  );
}

/** A delivery's attempts, newest first, each with the body it sent (`sent`: the delivery's). */
export function AttemptList({ attempts, sent = {} }: { attempts: Attempt[]; sent?: SentBody }) {
  if (attempts.length === 0) return <div class="empty">Not attempted yet.</div>;
  return (
    <>
      {attempts
        .map((a, i) => <AttemptDetail key={a.uid ?? i} attempt={a} number={i + 1} sent={sent} />)
        .reverse()}
    </>
  );
}

/** A delivery's attempts in a table, one row each, newest first: when, the outcome and its latency. */
export function AttemptTable({ attempts }: { attempts: Attempt[] }) {
  if (attempts.length === 0) return null;
  const rows = attempts.map((a, i) => ({ a, number: i + 1 })).reverse();
  return (
    <DataTable
      id="attempts"
      rows={rows}
      rowKey={(r) => String(r.number)}
      columns={[
        { label: 'Attempt', cell: (r) => String(r.number) },
        { label: 'Time', cell: (r) => when(r.a.created_at) },
        { label: 'Outcome', cell: (r) => attemptOutcome(r.a) },
        { label: 'Latency', cell: (r) => `${Math.round(r.a.latency_ms)} ms` },
      ]}
    />
  );
}
