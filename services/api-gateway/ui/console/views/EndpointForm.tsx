import type { BodyOf, ResponseOf } from '@hookrail/api-contract';
import { CLEARABLE_ENDPOINT_FIELDS, OAUTH2_AUTH_TYPES, SUPPORTED_ALGORITHMS } from '@hookrail/api-contract';
import type { Values } from '../../components/form/context';
import { CheckField, SelectField, TextField } from '../../components/form/fields';
import { Form } from '../../components/form/Form';
import { field, flag, json, num, text } from '../../components/form/values';
import { Loaded } from '../../components/Loaded';
import { useLoad } from '../../components/useLoad';
import { api } from '../api';
import { pageProject, useConsole } from '../context';
import { Link } from '../Link';
import { navigate } from '../location';
import { OAuth2Tester } from '../OAuth2Tester';
import type { Project } from '../ProjectPages';
import { Screen } from '../Screen';
import {
  DestinationFields,
  destinationBody,
  destinationValues,
  isBroker,
} from '../../components/DestinationFields';

type Endpoint = ResponseOf<typeof api.getEndpoint>;
type Body = BodyOf<typeof api.createEndpoint>;
type Clearable = NonNullable<BodyOf<typeof api.updateEndpoint>['clear']>[number];
type Auth = NonNullable<Body['authentication']>;
type OAuth2 = NonNullable<Auth['oauth2']>;

const AUTH_TYPES = [
  { value: 'api_key', label: 'API key header' },
  { value: 'basic_auth', label: 'Basic auth' },
  { value: 'oauth2', label: 'OAuth2 client credentials' },
];

/**
 * The form's values of an endpoint; for a new one (none), empty but for the scheme, which is the
 * project's default for new endpoints (the API's and the portal's too).
 */
function valuesOf(e?: Endpoint, advancedByDefault = false): Values {
  const a = e?.authentication;
  const o = a?.oauth2;
  return {
    ...destinationValues(e),
    name: field(e?.name),
    url: field(e?.url),
    description: field(e?.description),
    owner_id: field(e?.owner_id),
    content_type: field(e?.content_type),
    http_timeout: field(e?.http_timeout),
    rate_limit: field(e?.rate_limit),
    rate_limit_duration: field(e?.rate_limit_duration),
    support_email: field(e?.support_email),
    slack_webhook_url: field(e?.slack_webhook_url),
    advanced_signatures: e?.advanced_signatures ?? advancedByDefault,
    is_disabled: e?.is_disabled ?? false,
    secret: '',
    'authentication.type': field(a?.type),
    'authentication.api_key.header_name': field(a?.api_key?.header_name),
    'authentication.api_key.header_value': field(a?.api_key?.header_value),
    'authentication.basic_auth.username': field(a?.basic_auth?.username),
    'authentication.basic_auth.password': field(a?.basic_auth?.password),
    'authentication.oauth2.url': field(o?.url),
    'authentication.oauth2.client_id': field(o?.client_id),
    'authentication.oauth2.client_secret': field(o?.client_secret),
    'authentication.oauth2.authentication_type': field(o?.authentication_type ?? 'shared_secret'),
    'authentication.oauth2.scope': field(o?.scope),
    'authentication.oauth2.audience': field(o?.audience),
    'authentication.oauth2.signing_algorithm': field(o?.signing_algorithm ?? 'RS256'),
    'authentication.oauth2.signing_key': o?.signing_key ? JSON.stringify(o.signing_key, null, 2) : '',
    'mtls_client_cert.client_cert': field(e?.mtls_client_cert?.client_cert),
    'mtls_client_cert.client_key': field(e?.mtls_client_cert?.client_key),
  };
}

function authOf(v: Values): Auth | undefined {
  const at = (k: string) => text(v, `authentication.${k}`);
  switch (at('type') ?? '') {
    case 'api_key':
      return {
        type: 'api_key',
        api_key: { header_name: at('api_key.header_name')!, header_value: at('api_key.header_value')! },
      };
    case 'basic_auth':
      return {
        type: 'basic_auth',
        basic_auth: { username: at('basic_auth.username')!, password: at('basic_auth.password')! },
      };
    case 'oauth2': {
      const assertion = at('oauth2.authentication_type') === 'client_assertion';
      return {
        type: 'oauth2',
        oauth2: {
          url: at('oauth2.url')!,
          client_id: at('oauth2.client_id')!,
          authentication_type: assertion ? 'client_assertion' : 'shared_secret',
          client_secret: assertion ? undefined : at('oauth2.client_secret'),
          scope: at('oauth2.scope'),
          audience: at('oauth2.audience'),
          signing_algorithm: assertion
            ? (at('oauth2.signing_algorithm') as (typeof SUPPORTED_ALGORITHMS)[number])
            : undefined,
          signing_key: assertion ? json(v, 'authentication.oauth2.signing_key') : undefined,
        },
      };
    }
    default:
      return undefined;
  }
}

/**
 * The request body of the form; `e` is the endpoint being edited. An edit form is the whole
 * endpoint: it sends '' for an emptied description and names in `clear` the optional settings left
 * empty (leaving a field out would keep it, for Convoy's clients).
 */
function bodyOf(v: Values, e?: Endpoint): Body & { clear?: Clearable[] } {
  const cert = text(v, 'mtls_client_cert.client_cert');
  const key = text(v, 'mtls_client_cert.client_key');
  const body = {
    name: text(v, 'name')!,
    ...destinationBody(v),
    description: text(v, 'description', e !== undefined),
    owner_id: text(v, 'owner_id'),
    content_type: text(v, 'content_type'),
    http_timeout: num(v, 'http_timeout'),
    rate_limit: num(v, 'rate_limit'),
    rate_limit_duration: num(v, 'rate_limit_duration'),
    support_email: text(v, 'support_email'),
    slack_webhook_url: text(v, 'slack_webhook_url'),
    advanced_signatures: flag(v, 'advanced_signatures'),
    secret: text(v, 'secret'),
    authentication: authOf(v),
    mtls_client_cert: cert || key ? { client_cert: cert ?? '', client_key: key ?? '' } : undefined,
    // sent only when changed: `false` re-enables only what `true` disabled (see EditEndpointView)
    is_disabled: flag(v, 'is_disabled') !== (e?.is_disabled ?? false) ? flag(v, 'is_disabled') : undefined,
  };
  if (!e) return body;
  const clear = CLEARABLE_ENDPOINT_FIELDS.filter((f) => body[f] === undefined);
  return clear.length > 0 ? { ...body, clear } : body;
}

function AuthFields({ pid, v }: { pid: string; v: Values }) {
  const type = v['authentication.type'];
  const assertion = v['authentication.oauth2.authentication_type'] === 'client_assertion';
  return (
    <fieldset>
      <legend>Authentication of the requests</legend>
      <SelectField name="authentication.type" label="Authentication" none="none" options={AUTH_TYPES} />
      {type === 'api_key' && (
        <div class="field-row">
          <TextField name="authentication.api_key.header_name" label="Header name" placeholder="X-Api-Key" />
          <TextField name="authentication.api_key.header_value" label="Header value" type="password" />
        </div>
      )}
      {type === 'basic_auth' && (
        <div class="field-row">
          <TextField name="authentication.basic_auth.username" label="Username" />
          <TextField name="authentication.basic_auth.password" label="Password" type="password" />
        </div>
      )}
      {type === 'oauth2' && (
        <>
          <TextField name="authentication.oauth2.url" label="Token URL" type="url" />
          <div class="field-row">
            <TextField name="authentication.oauth2.client_id" label="Client id" />
            <SelectField
              name="authentication.oauth2.authentication_type"
              label="Client authentication"
              options={OAUTH2_AUTH_TYPES}
            />
          </div>
          {assertion ? (
            <>
              <SelectField
                name="authentication.oauth2.signing_algorithm"
                label="Signing algorithm"
                options={SUPPORTED_ALGORITHMS}
              />
              <TextField
                name="authentication.oauth2.signing_key"
                label="Signing key (JWK, JSON)"
                json
                required
              />
            </>
          ) : (
            <TextField
              name="authentication.oauth2.client_secret"
              label="Client secret"
              type="password"
              required
            />
          )}
          <div class="field-row">
            <TextField name="authentication.oauth2.scope" label="Scope" />
            <TextField name="authentication.oauth2.audience" label="Audience" />
          </div>
          <OAuth2Tester pid={pid} oauth2={() => (authOf(v) as { oauth2: OAuth2 }).oauth2} />
        </>
      )}
    </fieldset>
  );
}

/** Every field of an endpoint; `e` is the endpoint being edited (none for a new one). */
function EndpointFields(props: { pid: string; v: Values; editing: boolean; advancedByDefault?: boolean }) {
  const { pid, v, editing } = props;
  return (
    <>
      <div class="field-row">
        <TextField name="name" label="Name" />
        <TextField name="owner_id" label="Owner id" hint="Groups endpoints for fan-out and the portal" />
      </div>
      <DestinationFields v={v} editing={editing} />
      {!isBroker(v) && <TextField name="url" label="URL" type="url" placeholder="your HTTPS receiver" />}
      <TextField name="description" label="Description" />
      <fieldset>
        <legend>Delivery</legend>
        <div class="field-row">
          <TextField name="http_timeout" label="Timeout (seconds)" type="number" />
          <TextField name="rate_limit" label="Rate limit (requests)" type="number" hint="0: no limit" />
          <TextField name="rate_limit_duration" label="Per (seconds)" type="number" />
          <TextField name="content_type" label="Content type" placeholder="application/json" />
        </div>
        <CheckField
          name="advanced_signatures"
          label="Advanced signatures (timestamped, every signature version)"
          hint={
            editing
              ? 'Unticked: the simple scheme (one HMAC of the body)'
              : `The project's default for new endpoints is the ${props.advancedByDefault ? 'advanced' : 'simple'} scheme (Settings); receivers must verify the scheme chosen here`
          }
        />
        <CheckField
          name="is_disabled"
          label="Disabled (inactive: nothing is sent to it)"
          hint={
            editing
              ? 'Unticked, an inactive endpoint is activated again, whatever disabled it (pause and activate are on its page)'
              : 'Created inactive; activate it from its page when the receiver is ready'
          }
        />
        <TextField
          name="secret"
          label={editing ? 'New signing secret' : 'Signing secret'}
          type="password"
          autocomplete="new-password"
          hint={
            editing
              ? 'Replaces the current secret at once; leave empty to keep it (roll it on the endpoint page to keep the old one valid for a while)'
              : 'Generated when left empty'
          }
        />
      </fieldset>
      <AuthFields pid={pid} v={v} />
      <fieldset>
        <legend>Client certificate (mTLS)</legend>
        <div class="field-row">
          <TextField name="mtls_client_cert.client_cert" label="Client certificate (PEM)" multiline />
          <TextField name="mtls_client_cert.client_key" label="Client key (PEM)" multiline />
        </div>
      </fieldset>
      <fieldset>
        <legend>Alerts</legend>
        <div class="field-row">
          <TextField name="support_email" label="Support email" type="email" />
          <TextField name="slack_webhook_url" label="Slack webhook URL" type="url" />
        </div>
      </fieldset>
    </>
  );
}

/** Creating an endpoint: on success its page opens. */
export function NewEndpointView({ project }: { project: Project }) {
  const ctx = useConsole();
  const pid = project.uid;
  const advancedByDefault = project.config.signature.advanced_signatures_default ?? false;
  return (
    <Screen title="New endpoint">
      <Form
        id="endpoint-form"
        label="New endpoint"
        operation={api.createEndpoint}
        initial={valuesOf(undefined, advancedByDefault)}
        submitLabel="Create endpoint"
        onSubmit={async (v) => {
          const e = await ctx.call(api.createEndpoint, {
            params: { projectID: pid },
            body: bodyOf(v),
          });
          ctx.notify(`Endpoint ${e.name} created`);
          navigate(`${pageProject(pid)}/endpoints/${e.uid}`);
        }}
      >
        {(v) => <EndpointFields pid={pid} v={v} editing={false} advancedByDefault={advancedByDefault} />}
      </Form>
    </Screen>
  );
}

/** Editing an endpoint's every setting. */
export function EditEndpointView({ pid, id }: { pid: string; id: string }) {
  const ctx = useConsole();
  const params = { projectID: pid, endpointID: id };
  const load = useLoad(() => ctx.call(api.getEndpoint, { params }), [pid, id]);
  const page = `${pageProject(pid)}/endpoints/${id}`;
  return (
    <Loaded load={load}>
      {(e) => (
        <Screen title={`Edit endpoint ${e.name}`}>
          <p>
            <Link href={page}>← Back to the endpoint</Link>
          </p>
          <Form
            id="endpoint-form"
            label={`Edit endpoint ${e.name}`}
            operation={api.updateEndpoint}
            initial={valuesOf(e)}
            submitLabel="Save endpoint"
            onSubmit={async (v) => {
              const saved = await ctx.call(api.updateEndpoint, { params, body: bodyOf(v, e) });
              // is_disabled: false re-enables only what is_disabled disabled; activate any inactive one
              if (e.is_disabled && !flag(v, 'is_disabled') && saved.status === 'inactive')
                await ctx.call(api.activateEndpoint, { params });
              ctx.notify('Endpoint saved');
              navigate(page);
            }}
          >
            {(v) => <EndpointFields pid={pid} v={v} editing />}
          </Form>
        </Screen>
      )}
    </Loaded>
  );
}
