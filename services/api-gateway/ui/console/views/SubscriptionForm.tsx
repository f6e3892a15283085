import { Allowed } from '../../components/grants';
import type { BodyOf, ResponseOf } from '@hookrail/api-contract';
import {
  CLEARABLE_SUBSCRIPTION_FIELDS,
  DELIVERY_MODES,
  ORDERING_MODES,
  RETRY_TYPES,
  SUBSCRIPTION_TYPES,
} from '@hookrail/api-contract';
import { confirmAction } from '../../components/ConfirmDialog';
import type { Values } from '../../components/form/context';
import { SelectField, TextField } from '../../components/form/fields';
import { Form } from '../../components/form/Form';
import { field, json, jsonField, list, num, text } from '../../components/form/values';
import { Loaded } from '../../components/Loaded';
import { useLoad } from '../../components/useLoad';
import { act } from '../actions';
import { api } from '../api';
import { pageProject, useConsole } from '../context';
import { FilterRunner } from '../FilterRunner';
import { FunctionRunner } from '../FunctionRunner';
import { Link } from '../Link';
import { navigate } from '../location';
import { useEndpointChoices, useSourceChoices } from '../pickers';
import { Screen } from '../Screen';

type Subscription = ResponseOf<typeof api.getSubscription>;
type Body = BodyOf<typeof api.createSubscription>;
type Clearable = NonNullable<BodyOf<typeof api.updateSubscription>['clear']>[number];
type Json = Record<string, unknown>;

/** An empty filter part is shown empty, not as `{}`. */
const filterPart = (x: Json | undefined) => (x && Object.keys(x).length > 0 ? jsonField(x) : '');

function valuesOf(s?: Subscription, query?: URLSearchParams): Values {
  const f = s?.filter_config;
  return {
    name: field(s?.name),
    type: s?.type ?? 'api',
    endpoint_id: s?.endpoint_metadata?.uid ?? query?.get('endpoint_id') ?? '',
    source_id: s?.source_metadata?.uid ?? query?.get('source_id') ?? '',
    delivery_mode: s?.delivery_mode ?? 'at_least_once',
    'filter_config.event_types': (f?.event_types ?? []).filter((t) => t !== '*').join(', '),
    'filter_config.filter.body': filterPart(f?.filter.body),
    'filter_config.filter.headers': filterPart(f?.filter.headers),
    function: field(s?.function),
    'retry_config.type': s?.retry_config?.type ?? '',
    'retry_config.duration': field(s?.retry_config?.duration),
    'retry_config.retry_count': field(s?.retry_config?.retry_count),
    'rate_limit_config.count': field(s?.rate_limit_config?.count),
    'rate_limit_config.duration': field(s?.rate_limit_config?.duration),
    'alert_config.count': field(s?.alert_config?.count),
    'alert_config.threshold': field(s?.alert_config?.threshold),
    ordering: s?.ordering ?? 'none',
    'ordering_key.body_path': field(s?.ordering_key?.body_path),
    'ordering_key.header': field(s?.ordering_key?.header),
  };
}

/** The ordering fields of the form: `none` is left out (an edit then clears it). */
function orderingOf(v: Values): Pick<Body, 'ordering' | 'ordering_key'> {
  const mode = v.ordering as Body['ordering'];
  if (!mode || mode === 'none') return {};
  const bodyPath = text(v, 'ordering_key.body_path');
  const header = text(v, 'ordering_key.header');
  return {
    ordering: mode,
    ...(mode === 'key' && {
      ordering_key: bodyPath !== undefined ? { body_path: bodyPath } : header !== undefined ? { header } : {},
    }),
  };
}

/**
 * The request body of the form. An edit form is the whole subscription: `clear` names the optional
 * settings left empty (leaving a field out would keep it, for Convoy's clients).
 */
function bodyOf(v: Values, editing: boolean): Body & { clear?: Clearable[] } {
  const retryType = text(v, 'retry_config.type');
  const duration = text(v, 'retry_config.duration');
  const retries = num(v, 'retry_config.retry_count');
  const limit = num(v, 'rate_limit_config.count');
  const alerts = num(v, 'alert_config.count');
  const body = {
    name: text(v, 'name')!,
    type: v.type as Body['type'],
    endpoint_id: text(v, 'endpoint_id')!,
    source_id: text(v, 'source_id'),
    delivery_mode: v.delivery_mode as Body['delivery_mode'],
    filter_config: {
      event_types: list(v, 'filter_config.event_types') ?? ['*'],
      filter: {
        body: json<Json>(v, 'filter_config.filter.body') ?? {},
        headers: json<Json>(v, 'filter_config.filter.headers') ?? {},
      },
    },
    function: text(v, 'function'),
    retry_config:
      retryType || duration || retries !== undefined
        ? {
            type: retryType as (typeof RETRY_TYPES)[number] | undefined,
            duration: duration && /^\d+$/.test(duration) ? Number(duration) : duration,
            retry_count: retries,
          }
        : undefined,
    rate_limit_config:
      limit !== undefined ? { count: limit, duration: num(v, 'rate_limit_config.duration') ?? 1 } : undefined,
    alert_config:
      alerts !== undefined
        ? { count: alerts, threshold: text(v, 'alert_config.threshold') ?? '1h' }
        : undefined,
    ordering: undefined as Body['ordering'],
    ...orderingOf(v),
  };
  if (!editing) return body;
  const clear = CLEARABLE_SUBSCRIPTION_FIELDS.filter((f) => body[f] === undefined);
  return clear.length > 0 ? { ...body, clear } : body;
}

/** What the subscription connects: its name, endpoint and source, how and as what it delivers. */
function TargetFields({ pid }: { pid: string }) {
  const endpoints = useEndpointChoices(pid);
  const sources = useSourceChoices(pid);
  return (
    <div class="field-row">
      <TextField name="name" label="Name" />
      <SelectField name="endpoint_id" label="Endpoint" none="Choose an endpoint" options={endpoints} />
      <SelectField
        name="source_id"
        label="Source"
        none="none (events sent through the API)"
        options={sources}
        hint="Required in an incoming project"
      />
      <SelectField
        name="delivery_mode"
        label="Delivery mode"
        options={DELIVERY_MODES.map((m) => ({ value: m, label: m.replace(/_/g, ' ') }))}
      />
      <SelectField
        name="type"
        label="Type"
        options={SUBSCRIPTION_TYPES}
        hint="cli marks a subscription made for Convoy's CLI; both deliver alike"
      />
    </div>
  );
}

/** The event types and the body and header filters, with a runner to try them on a payload. */
function FilterFieldset({ pid, v }: { pid: string; v: Values }) {
  return (
    <fieldset>
      <legend>Filter</legend>
      <TextField
        name="filter_config.event_types"
        label="Event types"
        placeholder="invoice.paid, invoice.failed"
        hint="Separated by commas; empty: every event type"
      />
      <div class="grid">
        <TextField
          name="filter_config.filter.body"
          label="Body filter (JSON)"
          json
          placeholder='{"amount": {"$gte": 100}}'
        />
        <TextField name="filter_config.filter.headers" label="Header filter (JSON)" json />
      </div>
      <FilterRunner
        pid={pid}
        id="filter-test"
        body={String(v['filter_config.filter.body'])}
        headers={String(v['filter_config.filter.headers'])}
      />
    </fieldset>
  );
}

function FunctionFieldset({ pid, fn }: { pid: string; fn: string }) {
  return (
    <fieldset>
      <legend>Transform function</legend>
      <div class="grid">
        <TextField
          name="function"
          label="Function"
          multiline
          placeholder={'function transform(payload) {\n  return payload;\n}'}
        />
        <FunctionRunner pid={pid} id="subscription-function" fn={fn} what="function" />
      </div>
    </fieldset>
  );
}

function RetryFieldset() {
  return (
    <fieldset>
      <legend>Retries (the project's strategy when empty)</legend>
      <div class="field-row">
        <SelectField
          name="retry_config.type"
          label="Retry strategy"
          none="project default"
          options={RETRY_TYPES}
        />
        <TextField
          name="retry_config.duration"
          label="Interval"
          placeholder="30s"
          hint='Seconds, or "30s", "5m", "1h"'
        />
        <TextField name="retry_config.retry_count" label="Retries" type="number" />
      </div>
    </fieldset>
  );
}

function OrderingFieldset() {
  return (
    <fieldset>
      <legend>Ordered delivery</legend>
      <p class="hint" id="ordering-explained">
        none: deliveries go out in parallel, a failed one is retried while newer ones are sent. endpoint: one
        at a time to the endpoint, in the order the events were accepted; the next waits until the previous
        one succeeded (or failed for good). key: the same per ordering key read from each event, different
        keys in parallel.
      </p>
      <div class="field-row">
        <SelectField name="ordering" label="Ordering" options={ORDERING_MODES} />
        <TextField
          name="ordering_key.body_path"
          label="Key: body path"
          placeholder="data.order_id"
          hint="With ordering key: a path of the event data, or a header"
        />
        <TextField name="ordering_key.header" label="Key: header" placeholder="X-Order-Id" />
      </div>
    </fieldset>
  );
}

function RateLimitFieldset() {
  return (
    <fieldset>
      <legend>Rate limit and alerts</legend>
      <div class="field-row">
        <TextField name="rate_limit_config.count" label="Rate limit (deliveries)" type="number" />
        <TextField name="rate_limit_config.duration" label="Per (seconds)" type="number" />
        <TextField name="alert_config.count" label="Alert after (failures)" type="number" />
        <TextField name="alert_config.threshold" label="Within" placeholder="1h" />
      </div>
    </fieldset>
  );
}

function SubscriptionFields({ pid, v }: { pid: string; v: Values }) {
  return (
    <>
      <TargetFields pid={pid} />
      <FilterFieldset pid={pid} v={v} />
      <FunctionFieldset pid={pid} fn={String(v.function)} />
      <RetryFieldset />
      <OrderingFieldset />
      <RateLimitFieldset />
    </>
  );
}

export function NewSubscriptionView({ pid }: { pid: string }) {
  const ctx = useConsole();
  return (
    <Screen title="New subscription">
      <Form
        id="subscription-form"
        label="New subscription"
        operation={api.createSubscription}
        initial={valuesOf(undefined, ctx.where.query)}
        submitLabel="Create subscription"
        onSubmit={async (v) => {
          const s = await ctx.call(api.createSubscription, {
            params: { projectID: pid },
            body: bodyOf(v, false),
          });
          ctx.notify(`Subscription ${s.name} created`);
          navigate(`${pageProject(pid)}/subscriptions/${s.uid}`);
        }}
      >
        {(v) => <SubscriptionFields pid={pid} v={v} />}
      </Form>
    </Screen>
  );
}

export function EditSubscriptionView({ pid, id }: { pid: string; id: string }) {
  const ctx = useConsole();
  const params = { projectID: pid, subscriptionID: id };
  const load = useLoad(() => ctx.call(api.getSubscription, { params }), [pid, id]);
  const list = `${pageProject(pid)}/subscriptions`;
  return (
    <Loaded load={load}>
      {(s) => (
        <Screen title={`Subscription ${s.name}`}>
          <div class="toolbar">
            <Link href={list}>← All subscriptions</Link>
            <Allowed op={api.deleteSubscription}>
              <button
                type="button"
                class="danger"
                onClick={async () => {
                  if (!(await confirmAction(`Delete subscription ${s.name}?`, 'Delete subscription'))) return;
                  if (
                    await act(ctx, () => ctx.call(api.deleteSubscription, { params }), 'Subscription deleted')
                  )
                    navigate(list);
                }}
              >
                Delete
              </button>
            </Allowed>
          </div>
          <Form
            id="subscription-form"
            label={`Edit subscription ${s.name}`}
            operation={api.updateSubscription}
            initial={valuesOf(s)}
            submitLabel="Save subscription"
            onSubmit={async (v) => {
              await ctx.call(api.updateSubscription, { params, body: bodyOf(v, true) });
              ctx.notify('Subscription saved');
            }}
          >
            {(v) => <SubscriptionFields pid={pid} v={v} />}
          </Form>
        </Screen>
      )}
    </Loaded>
  );
}
