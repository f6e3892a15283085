import type {
  EndpointCreateBody,
  EndpointType,
  managementOperations,
  PortalEndpointResponse,
  ResponseOf,
} from '@hookrail/api-contract';
import type { Values } from './form/context';
import { CheckField, SelectField, TextField } from './form/fields';
import { field, flag, list, text } from './form/values';

type Json = Record<string, unknown>;
/** What the console's and the portal's endpoint responses share. */
type Endpoint = Pick<
  ResponseOf<typeof managementOperations.getEndpoint> | PortalEndpointResponse,
  'type' | 'destination'
>;
type Body = Pick<EndpointCreateBody, 'type' | 'url' | 'destination'>;

/** Where an endpoint's deliveries go (docs/destinations.md); the console's and the portal's endpoint forms. */
const TYPES = [
  { value: 'http', label: 'HTTP webhook' },
  { value: 'kafka', label: 'Kafka topic' },
  { value: 'amqp', label: 'RabbitMQ (AMQP) queue or exchange' },
  { value: 'sqs', label: 'Amazon SQS queue' },
  { value: 'google_pubsub', label: 'Google Pub/Sub topic' },
];

export const isBroker = (v: Values): boolean => (v.type ?? 'http') !== 'http';

/** The form's destination values of an endpoint (credentials are never sent back: always empty). */
export function destinationValues(e?: Endpoint): Values {
  const d = (e?.destination ?? {}) as Json;
  const auth = (d.auth ?? {}) as Json;
  const str = (x: unknown) => field(typeof x === 'string' || typeof x === 'number' ? x : undefined);
  return {
    type: e?.type ?? 'http',
    'destination.brokers': Array.isArray(d.brokers) ? d.brokers.join(', ') : '',
    'destination.topic_name': str(d.topic_name),
    'destination.auth.type': str(auth.type),
    'destination.auth.hash': str(auth.hash) || 'SHA256',
    'destination.auth.username': str(auth.username),
    'destination.auth.user': str(auth.user),
    'destination.auth.password': '',
    'destination.auth.tls': auth.tls === true,
    'destination.host': str(d.host),
    'destination.port': str(d.port),
    'destination.vhost': str(d.vhost),
    'destination.queue': str(d.queue),
    'destination.exchange': str(d.exchange),
    'destination.routingKey': str(d.routingKey),
    'destination.access_key_id': str(d.access_key_id),
    'destination.secret_key': '',
    'destination.default_region': str(d.default_region),
    'destination.queue_name': str(d.queue_name),
    'destination.project_id': str(d.project_id),
    'destination.topic_id': str(d.topic_id),
    'destination.service_account': '',
    'destination.message_ordering': d.message_ordering === true,
  };
}

/** Drops the members left empty (the API keeps a stored credential left out). */
const compact = (o: Json): Json =>
  Object.fromEntries(
    Object.entries(o).filter(
      ([, x]) => x !== undefined && !(typeof x === 'object' && x && !Object.keys(x).length),
    ),
  );

/** The body's `type`, `url` and `destination` (a broker endpoint sends no url). */
export function destinationBody(v: Values): Pick<Body, 'type' | 'url' | 'destination'> {
  const type = (text(v, 'type') ?? 'http') as EndpointType;
  const d = (k: string) => text(v, `destination.${k}`);
  switch (type) {
    case 'kafka': {
      const authType = d('auth.type');
      return {
        type,
        url: undefined,
        destination: compact({
          brokers: list(v, 'destination.brokers'),
          topic_name: d('topic_name'),
          auth: authType
            ? compact({
                type: authType,
                hash: authType === 'scram' ? d('auth.hash') : undefined,
                username: d('auth.username'),
                password: d('auth.password'),
                tls: flag(v, 'destination.auth.tls'),
              })
            : undefined,
        }),
      };
    }
    case 'amqp':
      return {
        type,
        url: undefined,
        destination: compact({
          host: d('host'),
          port: d('port'),
          vhost: d('vhost'),
          queue: d('queue'),
          exchange: d('exchange'),
          routingKey: d('routingKey'),
          auth: compact({ user: d('auth.user'), password: d('auth.password') }),
        }),
      };
    case 'sqs':
      return {
        type,
        url: undefined,
        destination: compact({
          access_key_id: d('access_key_id'),
          secret_key: d('secret_key'),
          default_region: d('default_region'),
          queue_name: d('queue_name'),
        }),
      };
    case 'google_pubsub': {
      const key = d('service_account');
      return {
        type,
        url: undefined,
        destination: compact({
          project_id: d('project_id'),
          topic_id: d('topic_id'),
          service_account: key ? btoa(key) : undefined,
          message_ordering: flag(v, 'destination.message_ordering'),
        }),
      };
    }
    case 'http':
      return { type: 'http', url: text(v, 'url') };
    case 'cli':
      // made by `hookrail listen` (not offered here): an edit keeps it a cli endpoint, without a url
      return { type: 'cli', url: undefined };
  }
}

/** `keep`: the hint of a credential field (stored sealed, or kept when left empty in an edit). */
function KafkaFields({ v, keep }: { v: Values; keep: string }) {
  return (
    <fieldset>
      <legend>Kafka</legend>
      <div class="field-row">
        <TextField name="destination.brokers" label="Brokers" placeholder="host:9092, host2:9092" required />
        <TextField name="destination.topic_name" label="Topic" required />
      </div>
      <div class="field-row">
        <SelectField name="destination.auth.type" label="SASL" none="none" options={['plain', 'scram']} />
        {v['destination.auth.type'] === 'scram' && (
          <SelectField name="destination.auth.hash" label="Hash" options={['SHA256', 'SHA512']} />
        )}
        {v['destination.auth.type'] && (
          <>
            <TextField name="destination.auth.username" label="Username" />
            <TextField name="destination.auth.password" label="Password" type="password" hint={keep} />
          </>
        )}
      </div>
      {v['destination.auth.type'] && <CheckField name="destination.auth.tls" label="TLS" />}
    </fieldset>
  );
}

function AmqpFields({ keep }: { keep: string }) {
  return (
    <fieldset>
      <legend>RabbitMQ</legend>
      <div class="field-row">
        <TextField name="destination.host" label="Host" required />
        <TextField name="destination.port" label="Port" placeholder="5672" />
        <TextField name="destination.vhost" label="Virtual host" />
      </div>
      <div class="field-row">
        <TextField name="destination.queue" label="Queue" hint="Published on the default exchange" />
        <TextField name="destination.exchange" label="Exchange" hint="Or an exchange…" />
        <TextField
          name="destination.routingKey"
          label="Routing key"
          hint="…with this key (default: the queue)"
        />
      </div>
      <div class="field-row">
        <TextField name="destination.auth.user" label="User" />
        <TextField name="destination.auth.password" label="Password" type="password" hint={keep} />
      </div>
    </fieldset>
  );
}

function SqsFields({ keep, editing }: { keep: string; editing: boolean }) {
  return (
    <fieldset>
      <legend>Amazon SQS</legend>
      <div class="field-row">
        <TextField
          name="destination.queue_name"
          label="Queue name"
          hint="A .fifo queue groups by event id"
          required
        />
        <TextField name="destination.default_region" label="Region" required />
      </div>
      <div class="field-row">
        <TextField name="destination.access_key_id" label="Access key id" required />
        <TextField
          name="destination.secret_key"
          label="Secret key"
          type="password"
          hint={keep}
          required={!editing}
        />
      </div>
    </fieldset>
  );
}

function PubSubFields({ keep }: { keep: string }) {
  return (
    <fieldset>
      <legend>Google Pub/Sub</legend>
      <div class="field-row">
        <TextField name="destination.project_id" label="Project id" required />
        <TextField name="destination.topic_id" label="Topic id" required />
      </div>
      <TextField
        name="destination.service_account"
        label="Service account key (JSON)"
        multiline
        hint={keep}
      />
      <CheckField name="destination.message_ordering" label="Ordering key: the event id" />
    </fieldset>
  );
}

/** The type picker and the settings of the picked broker; http keeps the form's URL field. */
export function DestinationFields({ v, editing }: { v: Values; editing: boolean }) {
  const type = v.type ?? 'http';
  const keep = editing
    ? 'Leave empty to keep the stored one (never shown)'
    : 'Stored sealed, never shown again';
  return (
    <>
      <SelectField name="type" label="Destination" options={TYPES} />
      {type === 'kafka' && <KafkaFields v={v} keep={keep} />}
      {type === 'amqp' && <AmqpFields keep={keep} />}
      {type === 'sqs' && <SqsFields keep={keep} editing={editing} />}
      {type === 'google_pubsub' && <PubSubFields keep={keep} />}
    </>
  );
}
