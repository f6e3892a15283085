import { endpointAddress } from '@hookrail/api-contract';
import { useState } from 'preact/hooks';
import { CatalogChoices } from '../components/CatalogChoices';
import { useField } from '../components/form/context';
import { Form } from '../components/form/Form';
import { TextField } from '../components/form/fields';
import { list, text } from '../components/form/values';
import { when } from '../components/format';
import { SecretValue } from '../components/SecretValue';
import { portal, portalCall, type PortalEndpoint } from './api';
import { usePortal } from './context';
import { StateBadges } from './EndpointState';

const ROLL_CHOICES: [number, string][] = [
  [3600, 'in 1 hour'],
  [86400, 'in 24 hours'],
  [604800, 'in 7 days'],
  [0, 'now'],
];

function RollSecret({ e }: { e: PortalEndpoint }) {
  const { act } = usePortal();
  const [seconds, setSeconds] = useState(ROLL_CHOICES[0][0]);
  const label = ROLL_CHOICES.find(([s]) => s === seconds)![1];
  return (
    <div class="toolbar">
      <select
        id="roll-expiration"
        aria-label="Old secret expires"
        value={String(seconds)}
        onChange={(ev) => setSeconds(Number(ev.currentTarget.value))}
      >
        {ROLL_CHOICES.map(([s, text]) => (
          <option key={s} value={String(s)}>
            old secret expires {text}
          </option>
        ))}
      </select>
      <button
        type="button"
        onClick={() =>
          act(
            () =>
              portalCall(portal.portalExpireEndpointSecret, {
                params: { endpointID: e.uid },
                body: { expiration: seconds },
              }),
            `Secret rolled; the old one expires ${label}`,
          )
        }
      >
        Roll secret
      </button>
    </div>
  );
}

const isPattern = (t: string) => t.includes('*');

/** Whether a concrete type is one a subscription pattern selects (`*`, or `invoice.*` for `invoice.paid`). */
const selects = (pattern: string, type: string) =>
  pattern === '*' || pattern === type || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1)));

/**
 * The type a test event is sent as: never a pattern (`invoice.*` is what the endpoint accepts, not a
 * type an event has). The endpoint's first concrete type, else the first catalog type one of its
 * patterns selects, else `hookrail.test` for an endpoint taking every type; else none: the holder
 * types one, helped by an example.
 */
function testEventType(types: string[], catalog: string[]): { type: string; example: string } {
  const concrete = types.find((t) => !isPattern(t));
  if (concrete) return { type: concrete, example: concrete };
  const patterns = types.length === 0 ? ['*'] : types;
  const listed = catalog.find((name) => patterns.some((p) => selects(p, name)));
  if (listed) return { type: listed, example: listed };
  if (patterns.includes('*')) return { type: 'hookrail.test', example: 'hookrail.test' };
  return { type: '', example: patterns[0].replace(/\*/g, 'created') };
}

/** A real event aimed at the endpoint, of a concrete type it accepts (its subscriptions' filters apply). */
function SendTestEvent({ e }: { e: PortalEndpoint }) {
  const { act, catalog } = usePortal();
  const initial = testEventType(
    e.event_types,
    catalog.map((t) => t.name),
  );
  const [type, setType] = useState(initial.type);
  const wanted = type.trim();
  const problem =
    wanted === ''
      ? `Type the event type to send, e.g. ${initial.example}`
      : isPattern(wanted)
        ? `${wanted} is a pattern: type one event type it matches, e.g. ${initial.example}`
        : '';
  return (
    <>
      <h3>Send a test event</h3>
      <div class="toolbar">
        <input
          id="test-event-type"
          aria-label="Test event type"
          aria-describedby="test-event-hint"
          value={type}
          placeholder={initial.example}
          onInput={(ev) => setType(ev.currentTarget.value)}
        />
        <button
          type="button"
          id="send-test-event"
          disabled={problem !== ''}
          onClick={() =>
            act(
              () =>
                portalCall(portal.portalSendTestEvent, {
                  params: { endpointID: e.uid },
                  body: { event_type: wanted },
                }),
              'Test event sent; it appears under Deliveries in a moment',
            )
          }
        >
          Send test event
        </button>
      </div>
      <p class="hint" id="test-event-hint">
        {problem || 'A concrete event type this endpoint receives.'}
      </p>
    </>
  );
}

/** The catalog's types as checkboxes writing into the form's event types field. */
function CatalogField({ name }: { name: string }) {
  const { catalog } = usePortal();
  const f = useField(name);
  return (
    <CatalogChoices
      id={`${f.id}-catalog`}
      names={catalog.map((t) => t.name)}
      value={typeof f.value === 'string' ? f.value : ''}
      onChange={f.set}
    />
  );
}

/**
 * Name, URL, description and the event types the endpoint receives (its subscription's filter;
 * empty: all). The API's field errors show beside the fields.
 */
function EditEndpoint({ e }: { e: PortalEndpoint }) {
  const { act } = usePortal();
  const all = e.event_types.length === 0 || e.event_types.includes('*');
  return (
    <>
      <h3>Edit endpoint</h3>
      <Form
        id="edit-endpoint"
        label="Edit endpoint"
        schema={portal.portalUpdateEndpoint.body}
        initial={{
          name: e.name,
          url: e.url,
          description: e.description,
          event_types: all ? '' : e.event_types.join(', '),
        }}
        submitLabel="Save endpoint"
        onSubmit={async (v) => {
          // sent only when changed: an endpoint with several subscriptions has them set elsewhere
          const types = list(v, 'event_types') ?? ['*'];
          const changed = types.join(',') !== (all ? '*' : e.event_types.join(','));
          await portalCall(portal.portalUpdateEndpoint, {
            params: { endpointID: e.uid },
            body: {
              name: text(v, 'name'),
              url: text(v, 'url'),
              description: text(v, 'description', true) ?? '',
              ...(changed ? { event_types: types } : {}),
            },
          });
          await act(async () => undefined, 'Endpoint saved');
        }}
      >
        {() => (
          <>
            <TextField name="name" label="Name" />
            <TextField name="url" label="URL" type="url" />
            <TextField name="description" label="Description" />
            <TextField
              name="event_types"
              label="Event types"
              hint="comma-separated; empty: every event type"
              placeholder="invoice.paid, invoice.failed"
            />
            <CatalogField name="event_types" />
          </>
        )}
      </Form>
    </>
  );
}

/** The selected endpoint: its state and why, its signing secrets; for managing links, its tools. */
export function EndpointDetail({ e }: { e: PortalEndpoint }) {
  const { link, notice, error } = usePortal();
  const b = e.circuit_breaker;
  const types = e.event_types.map((t) => (t === '*' ? 'all' : t));
  return (
    <section id="endpoint-detail" aria-labelledby="endpoint-detail-heading">
      <h2 id="endpoint-detail-heading">Endpoint {e.name}</h2>
      <p>
        <StateBadges e={e} />
        <span class="muted">
          {' '}
          {e.events} events · {e.failure_rate}% failures · {endpointAddress(e)}
        </span>
      </p>
      {e.status_reason && (
        <p class="reason">
          Status: {e.status} ({e.status_reason})
        </p>
      )}
      {b.state !== 'closed' && (
        <p class="reason">
          Circuit breaker {b.state.replace('_', '-')}
          {b.since ? ` since ${when(b.since)}` : ''}
          {b.reason ? `: ${b.reason}` : ''}
        </p>
      )}
      <p class="reason">Event types: {types.length ? types.join(', ') : 'none (no subscription)'}</p>
      <h3>Signing secrets</h3>
      <p class="muted">
        Verify each delivery signature with these. While a rolled secret has not expired, deliveries carry a
        signature for each.
      </p>
      {e.secrets.length === 0 && <p class="muted">No signing secret.</p>}
      {e.secrets
        .slice()
        .reverse()
        .map((s) => (
          <div class="secret" data-secret={s.uid} key={s.uid}>
            <SecretValue
              value={s.value}
              onCopied={() => notice('Secret copied to the clipboard')}
              onCopyFailed={error}
            />
            <span class="muted secret-expiry">
              {s.expires_at ? `expires ${when(s.expires_at)}` : 'current'}
            </span>
          </div>
        ))}
      {link.can_manage_endpoint && (
        <>
          <RollSecret e={e} />
          <SendTestEvent key={`t-${e.uid}`} e={e} />
          <EditEndpoint key={`e-${e.uid}`} e={e} />
        </>
      )}
    </section>
  );
}
