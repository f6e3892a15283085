import { Allowed } from '../../components/grants';
import type { BodyOf, ResponseOf } from '@hookrail/api-contract';
import {
  CLEARABLE_SOURCE_FIELDS,
  PROVIDERS,
  PUB_SUB_TYPES,
  type SourceType,
  VERIFIER_TYPES,
} from '@hookrail/api-contract';
import { confirmAction } from '../../components/ConfirmDialog';
import type { Values } from '../../components/form/context';
import { CheckField, SelectField, TextField } from '../../components/form/fields';
import { Form } from '../../components/form/Form';
import { field, flag, list, num, text } from '../../components/form/values';
import { Loaded } from '../../components/Loaded';
import { useLoad } from '../../components/useLoad';
import { act } from '../actions';
import { api } from '../api';
import { pageProject, useConsole } from '../context';
import { FunctionRunner } from '../FunctionRunner';
import { Link } from '../Link';
import { ChangeStreamFields, changeStreamOf, changeStreamValues } from './ChangeStreamFields';
import { ChangeStreamState } from './ChangeStreamState';
import { navigate } from '../location';
import { Screen } from '../Screen';

type Source = ResponseOf<typeof api.getSource>;
type Body = BodyOf<typeof api.createSource>;
type Clearable = NonNullable<BodyOf<typeof api.updateSource>['clear']>[number];
type Verifier = NonNullable<Body['verifier']>;
type PubSub = NonNullable<Body['pub_sub']>;

/** The types a source can be created with (the contract's REFUSED_SOURCE_TYPES are not offered). */
const TYPE_LABELS = {
  http: 'HTTP (an ingest URL)',
  pub_sub: 'Message broker (Kafka, RabbitMQ, SQS, Pub/Sub)',
  db_change_stream: 'Database change stream',
} satisfies Partial<Record<SourceType, string>>;
const BROKER_LABELS: Record<(typeof PUB_SUB_TYPES)[number], string> = {
  kafka: 'Kafka',
  amqp: 'RabbitMQ (AMQP)',
  sqs: 'Amazon SQS',
  google: 'Google Pub/Sub',
};
const VERIFIER_LABELS: Record<(typeof VERIFIER_TYPES)[number], string> = {
  noop: 'none (accept every request)',
  api_key: 'API key header',
  basic_auth: 'Basic auth',
  hmac: 'HMAC signature',
};
const labelled = <K extends string>(labels: Record<K, string>) =>
  (Object.keys(labels) as K[]).map((value) => ({ value, label: labels[value] }));

/** The form's values of a source (empty for a new one). */
function valuesOf(s?: Source): Values {
  const vf = s?.verifier;
  const ps = s?.pub_sub;
  return {
    name: field(s?.name),
    type: s?.type ?? 'http',
    provider: field(s?.provider),
    is_disabled: s?.is_disabled ?? false,
    'verifier.type': vf?.type ?? 'noop',
    'verifier.api_key.header_name': field(vf?.api_key?.header_name),
    'verifier.api_key.header_value': field(vf?.api_key?.header_value),
    'verifier.basic_auth.username': field(vf?.basic_auth?.username),
    'verifier.basic_auth.password': field(vf?.basic_auth?.password),
    'verifier.hmac.header': field(vf?.hmac?.header),
    'verifier.hmac.hash': vf?.hmac?.hash ?? 'SHA256',
    'verifier.hmac.encoding': vf?.hmac?.encoding ?? 'hex',
    'verifier.hmac.secret': field(vf?.hmac?.secret),
    'pub_sub.type': ps?.type ?? 'kafka',
    'pub_sub.workers': field(ps?.workers),
    'pub_sub.kafka.brokers': (ps?.kafka?.brokers ?? []).join(', '),
    'pub_sub.kafka.topic_name': field(ps?.kafka?.topic_name),
    'pub_sub.kafka.consumer_group_id': field(ps?.kafka?.consumer_group_id),
    'pub_sub.kafka.auth.type': field(ps?.kafka?.auth?.type),
    'pub_sub.kafka.auth.hash': ps?.kafka?.auth?.hash ?? 'SHA256',
    'pub_sub.kafka.auth.username': field(ps?.kafka?.auth?.username),
    'pub_sub.kafka.auth.password': field(ps?.kafka?.auth?.password),
    'pub_sub.kafka.auth.tls': ps?.kafka?.auth?.tls ?? false,
    'pub_sub.amqp.host': field(ps?.amqp?.host),
    'pub_sub.amqp.port': field(ps?.amqp?.port),
    'pub_sub.amqp.schema': ps?.amqp?.schema ?? 'amqp',
    'pub_sub.amqp.vhost': field(ps?.amqp?.vhost),
    'pub_sub.amqp.queue': field(ps?.amqp?.queue),
    'pub_sub.amqp.auth.user': field(ps?.amqp?.auth?.user),
    'pub_sub.amqp.auth.password': field(ps?.amqp?.auth?.password),
    'pub_sub.amqp.bindExchange.exchange': field(ps?.amqp?.bindedExchange),
    'pub_sub.amqp.bindExchange.routingKey': field(ps?.amqp?.routingKey),
    'pub_sub.amqp.deadLetterExchange': field(ps?.amqp?.deadLetterExchange),
    'pub_sub.sqs.queue_name': field(ps?.sqs?.queue_name),
    'pub_sub.sqs.default_region': field(ps?.sqs?.default_region),
    'pub_sub.sqs.access_key_id': field(ps?.sqs?.access_key_id),
    'pub_sub.sqs.secret_key': field(ps?.sqs?.secret_key),
    'pub_sub.google.project_id': field(ps?.google?.project_id),
    'pub_sub.google.subscription_id': field(ps?.google?.subscription_id),
    'pub_sub.google.service_account': keyText(ps?.google?.service_account),
    forward_headers: (s?.forward_headers ?? []).join(', '),
    idempotency_keys: (s?.idempotency_keys ?? []).join(', '),
    'custom_response.content_type': field(s?.custom_response?.content_type),
    'custom_response.body': field(s?.custom_response?.body),
    body_function: field(s?.body_function),
    header_function: field(s?.header_function),
    ...changeStreamValues(s),
  };
}

function verifierOf(v: Values): Verifier | undefined {
  const at = (k: string) => text(v, `verifier.${k}`)!;
  switch (String(v['verifier.type'])) {
    case 'api_key':
      return {
        type: 'api_key',
        api_key: { header_name: at('api_key.header_name'), header_value: at('api_key.header_value') },
      };
    case 'basic_auth':
      return {
        type: 'basic_auth',
        basic_auth: { username: at('basic_auth.username'), password: at('basic_auth.password') },
      };
    case 'hmac':
      return {
        type: 'hmac',
        hmac: {
          header: text(v, 'verifier.hmac.header'),
          hash: v['verifier.hmac.hash'] as 'SHA256' | 'SHA512',
          encoding: v['verifier.hmac.encoding'] as 'hex' | 'base64',
          secret: at('hmac.secret'),
        },
      };
    case 'noop':
      return { type: 'noop' };
    default:
      return undefined;
  }
}

/** A key file's bytes as the API returns them (base64, or a list of bytes) as its text. */
function keyText(bytes: string | number[] | undefined): string {
  if (bytes === undefined || bytes.length === 0) return '';
  const raw =
    typeof bytes === 'string' ? Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0)) : Uint8Array.from(bytes);
  return new TextDecoder().decode(raw);
}

/** A text as the base64 of its UTF-8 bytes (the API takes the key file's bytes so). */
function base64(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let binary = '';
  for (const b of new TextEncoder().encode(text)) binary += String.fromCharCode(b);
  return btoa(binary);
}

function pubSubOf(v: Values): PubSub {
  const at = (k: string) => text(v, `pub_sub.${k}`);
  const type = v['pub_sub.type'] as PubSub['type'];
  const workers = num(v, 'pub_sub.workers');
  switch (type) {
    case 'kafka':
      return {
        type,
        workers,
        kafka: {
          brokers: list(v, 'pub_sub.kafka.brokers') ?? [],
          topic_name: at('kafka.topic_name')!,
          consumer_group_id: at('kafka.consumer_group_id'),
          auth: at('kafka.auth.type')
            ? {
                type: at('kafka.auth.type') as 'plain' | 'scram',
                hash:
                  at('kafka.auth.type') === 'scram'
                    ? (at('kafka.auth.hash') as 'SHA256' | 'SHA512')
                    : undefined,
                username: at('kafka.auth.username'),
                password: at('kafka.auth.password'),
                tls: flag(v, 'pub_sub.kafka.auth.tls'),
              }
            : undefined,
        },
      };
    case 'amqp': {
      const user = at('amqp.auth.user');
      const password = at('amqp.auth.password');
      return {
        type,
        workers,
        amqp: {
          host: at('amqp.host')!,
          port: at('amqp.port'),
          schema: v['pub_sub.amqp.schema'] as 'amqp' | 'amqps',
          vhost: at('amqp.vhost'),
          queue: at('amqp.queue')!,
          auth: user || password ? { user, password } : undefined,
          deadLetterExchange: at('amqp.deadLetterExchange'),
          bindExchange: at('amqp.bindExchange.exchange')
            ? { exchange: at('amqp.bindExchange.exchange')!, routingKey: at('amqp.bindExchange.routingKey') }
            : undefined,
        },
      };
    }
    case 'sqs':
      return {
        type,
        workers,
        sqs: {
          queue_name: at('sqs.queue_name')!,
          default_region: at('sqs.default_region')!,
          access_key_id: at('sqs.access_key_id')!,
          secret_key: at('sqs.secret_key')!,
        },
      };
    case 'google':
      return {
        type: 'google',
        workers,
        google: {
          project_id: at('google.project_id')!,
          subscription_id: at('google.subscription_id')!,
          service_account: base64(at('google.service_account')),
        },
      };
  }
}

/**
 * The request body of the form. An edit form is the whole source: `clear` names the optional
 * settings left empty (leaving a field out would keep it, for Convoy's clients).
 */
function bodyOf(v: Values, editing: boolean): Body & { clear?: Clearable[] } {
  const type = v.type as Body['type'];
  const broker = type === 'pub_sub';
  const stream = type === 'db_change_stream';
  // Only an ingest URL takes requests: a provider, a verifier and a custom response are for it.
  const ingest = !broker && !stream;
  const responseBody = text(v, 'custom_response.body');
  const body = {
    name: text(v, 'name')!,
    type,
    provider: ingest ? ((text(v, 'provider') as Body['provider']) ?? undefined) : undefined,
    is_disabled: flag(v, 'is_disabled'),
    verifier: ingest ? verifierOf(v) : undefined,
    pub_sub: broker ? pubSubOf(v) : undefined,
    db_change_stream: stream ? changeStreamOf(v) : undefined,
    forward_headers: list(v, 'forward_headers') ?? (editing ? [] : undefined),
    idempotency_keys: list(v, 'idempotency_keys') ?? (editing ? [] : undefined),
    custom_response:
      ingest && responseBody !== undefined
        ? { body: responseBody, content_type: text(v, 'custom_response.content_type') ?? 'text/plain' }
        : undefined,
    body_function: text(v, 'body_function'),
    header_function: text(v, 'header_function'),
  };
  if (!editing) return body;
  const clear = CLEARABLE_SOURCE_FIELDS.filter((f) => body[f] === undefined);
  return clear.length > 0 ? { ...body, clear } : body;
}

function VerifierFields({ v }: { v: Values }) {
  const type = v['verifier.type'];
  return (
    <fieldset>
      <legend>Verifying the requests</legend>
      <div class="field-row">
        <SelectField
          name="provider"
          label="Provider"
          none="none"
          options={PROVIDERS}
          hint="Verifies the provider's own signature (give its webhook secret as an HMAC secret)"
        />
        <SelectField name="verifier.type" label="Verifier" options={labelled(VERIFIER_LABELS)} />
      </div>
      {type === 'api_key' && (
        <div class="field-row">
          <TextField name="verifier.api_key.header_name" label="Header name" />
          <TextField name="verifier.api_key.header_value" label="Header value" type="password" />
        </div>
      )}
      {type === 'basic_auth' && (
        <div class="field-row">
          <TextField name="verifier.basic_auth.username" label="Username" />
          <TextField name="verifier.basic_auth.password" label="Password" type="password" />
        </div>
      )}
      {type === 'hmac' && (
        <div class="field-row">
          <TextField name="verifier.hmac.header" label="Signature header" placeholder="X-Signature" />
          <SelectField name="verifier.hmac.hash" label="Hash" options={['SHA256', 'SHA512']} />
          <SelectField name="verifier.hmac.encoding" label="Encoding" options={['hex', 'base64']} />
          <TextField name="verifier.hmac.secret" label="Secret" type="password" />
        </div>
      )}
    </fieldset>
  );
}

function BrokerFields({ v }: { v: Values }) {
  const type = v['pub_sub.type'];
  return (
    <fieldset>
      <legend>Message broker</legend>
      <div class="field-row">
        <SelectField name="pub_sub.type" label="Broker" options={labelled(BROKER_LABELS)} />
        <TextField name="pub_sub.workers" label="Workers" type="number" />
      </div>
      {type === 'kafka' && (
        <div class="field-row">
          <TextField
            name="pub_sub.kafka.brokers"
            label="Brokers"
            required
            placeholder="host:9092, host2:9092"
            hint="Separated by commas"
          />
          <TextField name="pub_sub.kafka.topic_name" label="Topic" />
          <TextField name="pub_sub.kafka.consumer_group_id" label="Consumer group" />
          <SelectField
            name="pub_sub.kafka.auth.type"
            label="Authentication"
            none="none"
            options={[
              { value: 'plain', label: 'SASL PLAIN' },
              { value: 'scram', label: 'SASL SCRAM' },
            ]}
          />
          {v['pub_sub.kafka.auth.type'] === 'scram' && (
            <SelectField name="pub_sub.kafka.auth.hash" label="SCRAM hash" options={['SHA256', 'SHA512']} />
          )}
          {v['pub_sub.kafka.auth.type'] !== '' && (
            <>
              <TextField name="pub_sub.kafka.auth.username" label="Username" />
              <TextField name="pub_sub.kafka.auth.password" label="Password" type="password" />
            </>
          )}
          <CheckField name="pub_sub.kafka.auth.tls" label="TLS" />
        </div>
      )}
      {type === 'amqp' && (
        <>
          <div class="field-row">
            <TextField name="pub_sub.amqp.host" label="Host" />
            <TextField name="pub_sub.amqp.port" label="Port" placeholder="5672" />
            <SelectField name="pub_sub.amqp.schema" label="Scheme" options={['amqp', 'amqps']} />
            <TextField name="pub_sub.amqp.vhost" label="Virtual host" />
          </div>
          <div class="field-row">
            <TextField name="pub_sub.amqp.queue" label="Queue" />
            <TextField name="pub_sub.amqp.auth.user" label="User" />
            <TextField name="pub_sub.amqp.auth.password" label="Password" type="password" />
          </div>
          <div class="field-row">
            <TextField name="pub_sub.amqp.bindExchange.exchange" label="Bind the queue to exchange" />
            <TextField name="pub_sub.amqp.bindExchange.routingKey" label="Routing key" />
            <TextField name="pub_sub.amqp.deadLetterExchange" label="Dead-letter exchange" />
          </div>
        </>
      )}
      {type === 'sqs' && (
        <div class="field-row">
          <TextField name="pub_sub.sqs.queue_name" label="Queue name" />
          <TextField name="pub_sub.sqs.default_region" label="Region" />
          <TextField name="pub_sub.sqs.access_key_id" label="Access key id" />
          <TextField name="pub_sub.sqs.secret_key" label="Secret key" type="password" />
        </div>
      )}
      {type === 'google' && (
        <div class="field-row">
          <TextField name="pub_sub.google.project_id" label="Google project id" />
          <TextField name="pub_sub.google.subscription_id" label="Subscription id" />
          <TextField
            name="pub_sub.google.service_account"
            label="Service account key (JSON)"
            multiline
            hint="The key file's content; empty: the deployment's own credentials"
          />
        </div>
      )}
    </fieldset>
  );
}

/** The fields of where a source's events come from: a broker, a database or its ingest URL. */
function OriginFields({ v, editing }: { v: Values; editing: boolean }) {
  if (v.type === 'pub_sub') return <BrokerFields v={v} />;
  if (v.type === 'db_change_stream') return <ChangeStreamFields v={v} editing={editing} />;
  return <VerifierFields v={v} />;
}

function SourceFields({ pid, v, editing = false }: { pid: string; v: Values; editing?: boolean }) {
  const broker = v.type === 'pub_sub';
  const stream = v.type === 'db_change_stream';
  return (
    <>
      <div class="field-row">
        <TextField name="name" label="Name" />
        <SelectField name="type" label="Type" options={labelled(TYPE_LABELS)} />
      </div>
      <CheckField
        name="is_disabled"
        label={stream ? 'Disabled (the database is not read)' : 'Disabled (requests are refused)'}
      />
      <OriginFields v={v} editing={editing} />
      <fieldset hidden={stream}>
        <legend>Events</legend>
        <div class="field-row">
          <TextField name="forward_headers" label="Headers to forward" hint="Separated by commas" />
          <TextField
            name="idempotency_keys"
            label="Idempotency keys"
            placeholder="request.header.X-Id"
            hint="Where an event's key is read, e.g. request.body.id; separated by commas"
          />
        </div>
        {!broker && !stream && (
          <div class="field-row">
            <TextField name="custom_response.body" label="Custom response body" />
            <TextField
              name="custom_response.content_type"
              label="Custom response content type"
              placeholder="text/plain"
            />
          </div>
        )}
      </fieldset>
      <fieldset>
        <legend>Functions</legend>
        <div class="grid">
          <div>
            <TextField
              name="body_function"
              label="Body function"
              multiline
              placeholder={'function transform(payload) {\n  return payload;\n}'}
            />
            <FunctionRunner pid={pid} id="body-function" fn={String(v.body_function)} what="body function" />
          </div>
          <div>
            <TextField
              name="header_function"
              label="Header function"
              multiline
              placeholder={'function transform(headers) {\n  return headers;\n}'}
            />
            <FunctionRunner
              pid={pid}
              id="header-function"
              fn={String(v.header_function)}
              what="header function"
            />
          </div>
        </div>
      </fieldset>
    </>
  );
}

export function NewSourceView({ pid }: { pid: string }) {
  const ctx = useConsole();
  return (
    <Screen title="New source">
      <Form
        id="source-form"
        label="New source"
        operation={api.createSource}
        initial={valuesOf()}
        submitLabel="Create source"
        onSubmit={async (v) => {
          const s = await ctx.call(api.createSource, { params: { projectID: pid }, body: bodyOf(v, false) });
          ctx.notify(`Source ${s.name} created`);
          navigate(`${pageProject(pid)}/sources/${s.uid}`);
        }}
      >
        {(v) => <SourceFields pid={pid} v={v} />}
      </Form>
    </Screen>
  );
}

/** A source's page: its ingest URL and every setting, editable. */
export function EditSourceView({ pid, id }: { pid: string; id: string }) {
  const ctx = useConsole();
  const params = { projectID: pid, sourceID: id };
  // The tick: an action on the page (a restart from now) reloads the source's state.
  const load = useLoad(() => ctx.call(api.getSource, { params }), [pid, id, ctx.tick]);
  return (
    <Loaded load={load}>
      {(s) => (
        <Screen title={`Source ${s.name}`}>
          <div class="toolbar">
            <Link href={`${pageProject(pid)}/sources`}>← All sources</Link>
            <Allowed op={api.deleteSource}>
              <button
                type="button"
                class="danger"
                onClick={async () => {
                  if (!(await confirmAction(`Delete source ${s.name}?`, 'Delete source'))) return;
                  if (await act(ctx, () => ctx.call(api.deleteSource, { params }), 'Source deleted'))
                    navigate(`${pageProject(pid)}/sources`);
                }}
              >
                Delete
              </button>
            </Allowed>
          </div>
          {s.url && s.type !== 'db_change_stream' && (
            <p>
              Ingest URL{' '}
              <span class="mono" id="ingest-url">
                {s.url}
              </span>
            </p>
          )}
          {s.type === 'db_change_stream' && <ChangeStreamState pid={pid} s={s} />}
          {s.health && s.type !== 'db_change_stream' && (
            <p>
              Consumer {s.health.state}
              {s.health.error ? `: ${s.health.error}` : ''}
            </p>
          )}
          <Form
            id="source-form"
            label={`Edit source ${s.name}`}
            operation={api.updateSource}
            initial={valuesOf(s)}
            submitLabel="Save source"
            onSubmit={async (v) => {
              await ctx.call(api.updateSource, { params, body: bodyOf(v, true) });
              ctx.notify('Source saved');
            }}
          >
            {(v) => <SourceFields pid={pid} v={v} editing />}
          </Form>
        </Screen>
      )}
    </Loaded>
  );
}
