import { useState } from 'preact/hooks';
import { confirmAction } from '../../components/ConfirmDialog';
import { prettyJson } from '../../components/format';
import { messageOf } from '../../components/http';
import { JsonView } from '../../components/JsonView';
import { Link } from '../Link';
import type { ResponseOf } from '@hookrail/api-contract';
import { api } from '../api';
import { pageProject, useConsole } from '../context';
import { FunctionRunner } from '../FunctionRunner';
import { ListView } from '../ListView';
import { useEndpointChoices, useSourceChoices } from '../pickers';
import { Screen } from '../Screen';
import { SessionEnded } from '../session';

type Subscription = ResponseOf<typeof api.getSubscription>;

type Result = { kind: 'match' | 'no-match' | 'error'; text: string } | null;

/** A thrown error as the tester shows it (bad JSON named as such). */
const problem = (err: unknown): Result =>
  err instanceof SessionEnded
    ? null
    : { kind: 'error', text: err instanceof SyntaxError ? `Not valid JSON: ${err.message}` : messageOf(err) };

const filterOf = (s: Subscription) => ({
  body: s.filter_config.filter.body,
  headers: s.filter_config.filter.headers,
});

/** Runs a subscription's filter on a pasted payload with the routing engine; can save the edited filter. */
function FilterTester({ pid, s }: { pid: string; s: Subscription }) {
  const ctx = useConsole();
  const [filter, setFilter] = useState(prettyJson(filterOf(s)));
  const [payload, setPayload] = useState('{}');
  const [headers, setHeaders] = useState('{}');
  const [result, setResult] = useState<Result>(null);
  type Json = Record<string, unknown>;
  const parsedFilter = () => JSON.parse(filter) as { body?: Json; headers?: Json };

  const run = async () => {
    setResult(null);
    try {
      const f = parsedFilter();
      const body = {
        request: { body: JSON.parse(payload) as unknown, headers: JSON.parse(headers) as Json },
        schema: { body: f.body ?? {}, headers: f.headers ?? {} },
      };
      const r = await ctx.call(api.testSubscriptionFilter, { params: { projectID: pid }, body });
      setResult(
        r.is_match
          ? { kind: 'match', text: 'Match: this subscription would receive the event.' }
          : { kind: 'no-match', text: 'No match: this subscription would skip the event.' },
      );
    } catch (err) {
      setResult(problem(err));
    }
  };
  const save = async () => {
    try {
      const f = parsedFilter();
      if (!(await confirmAction(`Replace the filter of subscription ${s.name}?`, 'Save filter'))) return;
      await ctx.call(api.updateSubscription, {
        params: { projectID: pid, subscriptionID: s.uid },
        body: {
          filter_config: {
            event_types: s.filter_config.event_types,
            filter: { body: f.body ?? {}, headers: f.headers ?? {} },
          },
        },
      });
      ctx.notify('Filter saved');
      ctx.refresh();
    } catch (err) {
      setResult(problem(err));
    }
  };
  return (
    <>
      <h2>Filter tester · {s.name}</h2>
      <p class="muted">Runs the same filter engine as routing on a pasted payload and headers.</p>
      <div class="grid">
        <label>
          Filter (body and headers)
          <textarea id="tester-filter" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
        </label>
        <label>
          Sample payload
          <textarea id="tester-payload" value={payload} onInput={(e) => setPayload(e.currentTarget.value)} />
        </label>
        <label>
          Sample headers
          <textarea id="tester-headers" value={headers} onInput={(e) => setHeaders(e.currentTarget.value)} />
        </label>
      </div>
      <div class="toolbar">
        <button type="button" class="primary" id="tester-run" onClick={run}>
          Test
        </button>
        <button type="button" id="tester-save" onClick={save}>
          Save as the subscription filter
        </button>
      </div>
      <p
        id="tester-result"
        role="status"
        class={result?.kind === 'error' ? 'alert' : `match ${result?.kind === 'match' ? 'yes' : 'no'}`}
      >
        {result?.text ?? ''}
      </p>
    </>
  );
}

/** A transform function to try on a sample payload in the delivery sandbox. */
function FunctionTester({ pid, s }: { pid: string; s: Subscription }) {
  const [source, setSource] = useState(s.function || 'function transform(payload) {\n  return payload;\n}');
  return (
    <>
      <h2>Function tester</h2>
      <p class="muted">Runs a transform function on a sample payload in the delivery sandbox.</p>
      <div class="grid">
        <label>
          Transform function
          <textarea id="function-source" value={source} onInput={(e) => setSource(e.currentTarget.value)} />
        </label>
        <FunctionRunner pid={pid} id="function" fn={source} what="function" />
      </div>
    </>
  );
}

export function SubscriptionsView({ pid }: { pid: string }) {
  const [picked, setPicked] = useState<string | null>(null);
  const base = pageProject(pid);
  const endpoints = useEndpointChoices(pid);
  const sources = useSourceChoices(pid);
  return (
    <Screen title="Subscriptions">
      <ListView
        op={api.listSubscriptions}
        params={{ projectID: pid }}
        id="subscriptions"
        empty="No subscriptions yet."
        filters={[
          { key: 'name', label: 'Name' },
          { key: 'endpoint_id', label: 'Endpoint', options: endpoints },
          { key: 'source_id', label: 'Source', options: sources },
        ]}
        toolbar={() => (
          <div class="toolbar">
            <Link class="button primary" href={`${base}/subscriptions/new`}>
              New subscription
            </Link>
          </div>
        )}
        columns={[
          { label: 'Name', cell: (s) => <Link href={`${base}/subscriptions/${s.uid}`}>{s.name}</Link> },
          { label: 'Source', cell: (s) => s.source_metadata?.name ?? '—' },
          {
            label: 'Endpoint',
            cell: (s) =>
              s.endpoint_metadata ? (
                <Link href={`${base}/endpoints/${s.endpoint_metadata.uid}`}>{s.endpoint_metadata.name}</Link>
              ) : (
                '—'
              ),
          },
          { label: 'Event types', cell: (s) => (s.filter_config.event_types ?? []).join(', ') },
          { label: 'Filter', cell: (s) => <JsonView value={filterOf(s)} /> },
          {
            label: 'Tester',
            hiddenLabel: true,
            cell: (s) => (
              <button type="button" onClick={() => setPicked(s.uid)}>
                Test filter
              </button>
            ),
          },
        ]}
        footer={(page) => {
          const s = page.content.find((x) => x.uid === picked) ?? page.content[0];
          return (
            s && (
              <section class="card" id="tester" aria-label="Testers">
                <FilterTester key={s.uid} pid={pid} s={s} />
                <FunctionTester key={`f-${s.uid}`} pid={pid} s={s} />
              </section>
            )
          );
        }}
      />
    </Screen>
  );
}
