import { Allowed } from '../../components/grants';
import { useState } from 'preact/hooks';
import { confirmAction } from '../../components/ConfirmDialog';
import { prettyJson } from '../../components/format';
import { messageOf } from '../../components/http';
import { JsonView } from '../../components/JsonView';
import { Link } from '../Link';
import type { ResponseOf } from '@hookrail/api-contract';
import { api } from '../api';
import { pageProject, useConsole } from '../context';
import { FilterRunner } from '../FilterRunner';
import { FunctionRunner } from '../FunctionRunner';
import { ListView } from '../ListView';
import { useEndpointChoices, useSourceChoices } from '../pickers';
import { Screen } from '../Screen';
import { SessionEnded } from '../session';

type Subscription = ResponseOf<typeof api.getSubscription>;

const filterOf = (s: Subscription) => ({
  body: s.filter_config.filter.body,
  headers: s.filter_config.filter.headers,
});

type Json = Record<string, unknown>;

/** The tester's filter text as its body and headers parts (the text itself when it is not JSON: the runner says so). */
function parts(filter: string): { body: string; headers: string } {
  try {
    const f = JSON.parse(filter) as { body?: Json; headers?: Json };
    return { body: JSON.stringify(f.body ?? {}), headers: JSON.stringify(f.headers ?? {}) };
  } catch {
    return { body: filter, headers: '{}' };
  }
}

/** Runs a subscription's filter on a pasted payload with the routing engine; can save the edited filter. */
function FilterTester({ pid, s }: { pid: string; s: Subscription }) {
  const ctx = useConsole();
  const [filter, setFilter] = useState(prettyJson(filterOf(s)));
  const save = async () => {
    try {
      const f = JSON.parse(filter) as { body?: Json; headers?: Json };
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
      if (!(err instanceof SessionEnded))
        ctx.notify(
          `Failed: ${err instanceof SyntaxError ? `the filter is not valid JSON (${err.message})` : messageOf(err)}`,
        );
    }
  };
  const { body, headers } = parts(filter);
  return (
    <>
      <h2>Filter tester · {s.name}</h2>
      <p class="muted">Runs the same filter engine as routing on a pasted payload and headers.</p>
      <div class="field">
        <label for="tester-filter">Filter (body and headers)</label>
        <textarea id="tester-filter" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      </div>
      <FilterRunner pid={pid} id="tester" body={body} headers={headers} />
      <Allowed op={api.updateSubscription}>
        <button type="button" id="tester-save" onClick={save}>
          Save as the subscription filter
        </button>
      </Allowed>
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
            <Allowed op={api.createSubscription}>
              <Link class="button primary" href={`${base}/subscriptions/new`}>
                New subscription
              </Link>
            </Allowed>
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
