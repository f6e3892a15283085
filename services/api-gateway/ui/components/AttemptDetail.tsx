import { DataTable } from './DataTable';
import { attemptOutcome, when } from './format';
import { JsonView } from './JsonView';
import type { Attempt } from './types';

/** One delivery attempt: what was sent and what came back (or why nothing did). */
function AttemptDetail({ attempt: a, number }: { attempt: Attempt; number: number }) {
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
      <strong>Response body</strong>
      <JsonView text={a.response_data || '(empty)'} />
    </section>
  );
}

/** A delivery's attempts, newest first. */
export function AttemptList({ attempts }: { attempts: Attempt[] }) {
  if (attempts.length === 0) return <div class="empty">Not attempted yet.</div>;
  return (
    <>{attempts.map((a, i) => <AttemptDetail key={a.uid ?? i} attempt={a} number={i + 1} />).reverse()}</>
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
