import type { Values } from '../../components/form/context';
import { SelectField, TextField } from '../../components/form/fields';
import { Form } from '../../components/form/Form';
import { json, text } from '../../components/form/values';
import { api } from '../api';
import { pageProject, useConsole } from '../context';
import { navigate } from '../location';
import { useEndpointChoices } from '../pickers';
import { Screen } from '../Screen';

const MODES = [
  { value: 'single', label: 'One endpoint' },
  { value: 'broadcast', label: 'Every matching subscription (broadcast)' },
  { value: 'fanout', label: 'Every endpoint of an owner (fan-out)' },
];

const SAMPLE = '{\n  "test": true\n}';

/**
 * Sends an event, a test event to one endpoint by default (`?endpoint_id=` picks it); the event's
 * page opens, where its deliveries show as they happen.
 */
export function SendEventView({ pid }: { pid: string }) {
  const ctx = useConsole();
  const endpoints = useEndpointChoices(pid);
  const initial: Values = {
    mode: 'single',
    endpoint_id: ctx.where.query.get('endpoint_id') ?? '',
    owner_id: '',
    event_type: 'test.event',
    data: SAMPLE,
    idempotency_key: '',
    custom_headers: '',
  };
  return (
    <Screen title="Send an event">
      <Form
        id="event-form"
        label="Send an event"
        operation={api.createEvent}
        initial={initial}
        submitLabel="Send event"
        onSubmit={async (v) => {
          const params = { projectID: pid };
          const common = {
            event_type: text(v, 'event_type')!,
            data: json(v, 'data'),
            idempotency_key: text(v, 'idempotency_key'),
            custom_headers: json<Record<string, string>>(v, 'custom_headers'),
          };
          const mode = v.mode;
          const sent =
            mode === 'broadcast'
              ? await ctx.call(api.broadcastEvent, { params, body: common })
              : mode === 'fanout'
                ? await ctx.call(api.fanoutEvent, {
                    params,
                    body: { ...common, owner_id: text(v, 'owner_id')! },
                  })
                : await ctx.call(api.createEvent, {
                    params,
                    body: { ...common, endpoint_id: text(v, 'endpoint_id')! },
                  });
          ctx.notify('Event sent');
          navigate(`${pageProject(pid)}/events/${sent.uid}?live=5`);
        }}
      >
        {(v) => (
          <>
            <SelectField name="mode" label="Send to" options={MODES} />
            {v.mode === 'single' && (
              <SelectField
                name="endpoint_id"
                label="Endpoint"
                none="Choose an endpoint"
                options={endpoints}
              />
            )}
            {v.mode === 'fanout' && <TextField name="owner_id" label="Owner id" required />}
            <TextField name="event_type" label="Event type" />
            <TextField name="data" label="Payload (JSON)" json required />
            <TextField
              name="custom_headers"
              label="Custom headers (JSON object)"
              json
              hint='Sent with the request, e.g. {"X-Test": "yes"}'
            />
            <TextField
              name="idempotency_key"
              label="Idempotency key"
              hint="An event with a key already seen is not sent again"
            />
          </>
        )}
      </Form>
    </Screen>
  );
}
