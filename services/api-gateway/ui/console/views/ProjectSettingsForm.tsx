import type { BodyOf, ResponseOf } from '@hookrail/api-contract';
import { META_EVENT_TYPES, RETRY_TYPES, SIGNATURE_ENCODINGS, SIGNATURE_HASHES } from '@hookrail/api-contract';
import { useContext } from 'preact/hooks';
import { FormContext, type Values } from '../../components/form/context';
import { CheckField, SelectField, TextField } from '../../components/form/fields';
import { Form } from '../../components/form/Form';
import { field, flag, num, text } from '../../components/form/values';
import { api } from '../api';
import { useConsole } from '../context';

type Project = ResponseOf<typeof api.getProject>;
type Body = BodyOf<typeof api.updateProject>;
type Config = NonNullable<Body['config']>;
type Version = NonNullable<NonNullable<Config['signature']>['versions']>[number];

const VERSIONS = 'config.signature.versions';
/** How many signature version rows the form shows (a form value, never sent). */
const VERSION_ROWS = '_signature_versions';
const metaType = (t: string) => `config.meta_event.event_type.${t}`;

function valuesOf(p: Project): Values {
  const c = p.config;
  const versions = c.signature.versions ?? [];
  const v: Values = {
    name: p.name,
    type: p.type,
    'config.retention_seconds': field(c.retention_seconds),
    'config.max_payload_bytes': field(c.max_payload_bytes),
    'config.strategy.type': c.strategy.type ?? 'linear',
    'config.strategy.duration': field(c.strategy.duration),
    'config.strategy.retry_count': field(c.strategy.retry_count),
    'config.signature.header': field(c.signature.header),
    'config.signature.standard_webhooks': c.signature.standard_webhooks ?? false,
    'config.signature.advanced_signatures_default': c.signature.advanced_signatures_default ?? false,
    'config.portal_branding.name': field(c.portal_branding.name),
    'config.portal_branding.logo_url': field(c.portal_branding.logo_url),
    'config.portal_branding.primary_color': field(c.portal_branding.primary_color),
    'config.portal_branding.background_color': field(c.portal_branding.background_color),
    [VERSION_ROWS]: String(Math.max(1, versions.length)),
    'config.disable_endpoint': c.disable_endpoint ?? false,
    'config.ssl.enforce_secure_endpoints': c.ssl.enforce_secure_endpoints ?? false,
    'config.add_event_id_trace_headers': c.add_event_id_trace_headers ?? false,
    'config.event_validation.mode': c.event_validation?.mode ?? 'off',
    'config.event_validation.unknown_types': c.event_validation?.unknown_types ?? 'allow',
    'config.meta_event.is_enabled': c.meta_event.is_enabled ?? false,
    'config.meta_event.url': field(c.meta_event.url),
    'config.meta_event.secret': field(c.meta_event.secret),
    'config.circuit_breaker.min_requests': field(c.circuit_breaker?.min_requests),
    'config.circuit_breaker.failure_rate': field(c.circuit_breaker?.failure_rate),
    'config.circuit_breaker.consecutive_failures': field(c.circuit_breaker?.consecutive_failures),
    'config.circuit_breaker.probe_interval_seconds': field(c.circuit_breaker?.probe_interval_seconds),
    'config.circuit_breaker.disable_after_seconds': field(c.circuit_breaker?.disable_after_seconds),
  };
  versions.forEach((x, i) => {
    v[`${VERSIONS}.${i}.hash`] = x.hash;
    v[`${VERSIONS}.${i}.encoding`] = x.encoding;
  });
  if (versions.length === 0)
    Object.assign(v, { [`${VERSIONS}.0.hash`]: 'SHA256', [`${VERSIONS}.0.encoding`]: 'hex' });
  for (const t of META_EVENT_TYPES) v[metaType(t)] = (c.meta_event.event_type ?? []).includes(t);
  return v;
}

type EventValidation = NonNullable<NonNullable<Body['config']>['event_validation']>;
type ValidationMode = NonNullable<EventValidation['mode']>;
type UnknownTypes = NonNullable<EventValidation['unknown_types']>;
const VALIDATION_MODES: { value: ValidationMode; label: string }[] = [
  { value: 'off', label: 'off' },
  { value: 'warn', label: 'warn: accept, record the violations' },
  { value: 'enforce', label: 'enforce: refuse with 400' },
];
const UNKNOWN_TYPES: { value: UnknownTypes; label: string }[] = [
  { value: 'allow', label: 'allow' },
  { value: 'warn', label: 'warn: accept, record it' },
  { value: 'refuse', label: 'refuse with 400' },
];

const BREAKER = [
  'min_requests',
  'failure_rate',
  'consecutive_failures',
  'probe_interval_seconds',
  'disable_after_seconds',
] as const;

/** The circuit breaker's settings given (none when all are left empty: the defaults stay). */
function breakerOf(v: Values): Config['circuit_breaker'] {
  const out: Partial<Record<(typeof BREAKER)[number], number>> = {};
  for (const k of BREAKER) out[k] = num(v, `config.circuit_breaker.${k}`);
  return Object.values(out).some((x) => x !== undefined) ? out : undefined;
}

function bodyOf(v: Values): Body {
  const rows = Number(v[VERSION_ROWS]);
  const versions: Version[] = [];
  for (let i = 0; i < rows; i++)
    versions.push({
      hash: v[`${VERSIONS}.${i}.hash`] as Version['hash'],
      encoding: v[`${VERSIONS}.${i}.encoding`] as Version['encoding'],
    });
  const metaOn = flag(v, 'config.meta_event.is_enabled');
  return {
    name: text(v, 'name'),
    type: v.type as Body['type'],
    config: {
      retention_seconds: num(v, 'config.retention_seconds'),
      max_payload_bytes: num(v, 'config.max_payload_bytes'),
      strategy: {
        type: v['config.strategy.type'] as (typeof RETRY_TYPES)[number],
        duration: num(v, 'config.strategy.duration'),
        retry_count: num(v, 'config.strategy.retry_count'),
      },
      signature: {
        header: text(v, 'config.signature.header'),
        versions,
        standard_webhooks: flag(v, 'config.signature.standard_webhooks'),
        advanced_signatures_default: flag(v, 'config.signature.advanced_signatures_default'),
      },
      disable_endpoint: flag(v, 'config.disable_endpoint'),
      ssl: { enforce_secure_endpoints: flag(v, 'config.ssl.enforce_secure_endpoints') },
      add_event_id_trace_headers: flag(v, 'config.add_event_id_trace_headers'),
      event_validation: {
        mode: v['config.event_validation.mode'] as ValidationMode,
        unknown_types: v['config.event_validation.unknown_types'] as UnknownTypes,
      },
      circuit_breaker: breakerOf(v),
      // sent whole: an emptied field is removed
      portal_branding: {
        name: text(v, 'config.portal_branding.name'),
        logo_url: text(v, 'config.portal_branding.logo_url'),
        primary_color: text(v, 'config.portal_branding.primary_color'),
        background_color: text(v, 'config.portal_branding.background_color'),
      },
      meta_event: {
        is_enabled: metaOn,
        url: text(v, 'config.meta_event.url'),
        secret: text(v, 'config.meta_event.secret'),
        event_type: META_EVENT_TYPES.filter((t) => v[metaType(t)] === true),
      },
    },
  };
}

/** The signature versions: a hash and an encoding each; a version is added or the last removed. */
function SignatureVersions({ rows }: { rows: number }) {
  const form = useContext(FormContext)!;
  return (
    <>
      {Array.from({ length: rows }, (_, i) => (
        <div class="field-row" key={i}>
          <SelectField
            name={`${VERSIONS}.${i}.hash`}
            label={`Version ${i + 1} hash`}
            options={SIGNATURE_HASHES}
          />
          <SelectField
            name={`${VERSIONS}.${i}.encoding`}
            label={`Version ${i + 1} encoding`}
            options={SIGNATURE_ENCODINGS}
          />
        </div>
      ))}
      <div class="toolbar">
        <button
          type="button"
          onClick={() => {
            form.set(`${VERSIONS}.${rows}.hash`, 'SHA256');
            form.set(`${VERSIONS}.${rows}.encoding`, 'hex');
            form.set(VERSION_ROWS, String(rows + 1));
          }}
        >
          Add a signature version
        </button>
        <button type="button" disabled={rows <= 1} onClick={() => form.set(VERSION_ROWS, String(rows - 1))}>
          Remove the last version
        </button>
      </div>
    </>
  );
}

/** The project's name and type, what it keeps and how it retries by default. */
function GeneralFields() {
  return (
    <>
      <div class="field-row">
        <TextField name="name" label="Project name" />
        <SelectField name="type" label="Type" options={['outgoing', 'incoming']} />
      </div>
      <fieldset>
        <legend>Retention and payloads</legend>
        <div class="field-row">
          <TextField
            name="config.retention_seconds"
            label="Keep events and deliveries (seconds)"
            type="number"
            hint="At least 3600; 2592000 is 30 days"
          />
          <TextField name="config.max_payload_bytes" label="Largest payload (bytes)" type="number" />
        </div>
      </fieldset>
      <fieldset>
        <legend>Retry strategy (subscriptions without their own)</legend>
        <div class="field-row">
          <SelectField name="config.strategy.type" label="Strategy" options={RETRY_TYPES} />
          <TextField name="config.strategy.duration" label="Interval (seconds)" type="number" />
          <TextField name="config.strategy.retry_count" label="Retries" type="number" />
        </div>
      </fieldset>
    </>
  );
}

function SignatureFieldset({ rows }: { rows: number }) {
  return (
    <fieldset>
      <legend>Signatures</legend>
      <TextField name="config.signature.header" label="Signature header" />
      <SignatureVersions rows={rows} />
      <CheckField name="config.signature.standard_webhooks" label="Standard Webhooks headers" />
      <CheckField
        name="config.signature.advanced_signatures_default"
        label="New endpoints use advanced signatures"
        hint="Unticked: the simple scheme (one HMAC of the body). Applies to endpoints created afterwards without a choice (API, portal) and pre-fills the console's endpoint form"
      />
    </fieldset>
  );
}

function CircuitBreakerFieldset() {
  return (
    <fieldset>
      <legend>Circuit breaker</legend>
      <div class="field-row">
        <TextField
          name="config.circuit_breaker.failure_rate"
          label="Opens at failure rate (%)"
          type="number"
        />
        <TextField
          name="config.circuit_breaker.min_requests"
          label="Over at least (attempts)"
          type="number"
        />
        <TextField
          name="config.circuit_breaker.consecutive_failures"
          label="Or after consecutive failures"
          type="number"
        />
        <TextField
          name="config.circuit_breaker.probe_interval_seconds"
          label="Probe every (seconds)"
          type="number"
        />
        <TextField
          name="config.circuit_breaker.disable_after_seconds"
          label="Disable after open for (seconds)"
          type="number"
        />
      </div>
    </fieldset>
  );
}

function EndpointsFieldset() {
  return (
    <fieldset>
      <legend>Endpoints</legend>
      <CheckField name="config.ssl.enforce_secure_endpoints" label="Only https endpoints" />
      <CheckField name="config.disable_endpoint" label="Disable an endpoint that keeps failing" />
      <CheckField name="config.add_event_id_trace_headers" label="Add the event id as a trace header" />
      <CircuitBreakerFieldset />
    </fieldset>
  );
}

function ValidationFieldset() {
  return (
    <fieldset>
      <legend>Event validation</legend>
      <div class="field-row">
        <SelectField
          name="config.event_validation.mode"
          label="Check data against the event type's schema"
          options={VALIDATION_MODES}
        />
        <SelectField
          name="config.event_validation.unknown_types"
          label="Event types not in the catalog"
          options={UNKNOWN_TYPES}
        />
      </div>
    </fieldset>
  );
}

function BrandingFieldset() {
  return (
    <fieldset>
      <legend>Customer portal branding</legend>
      <div class="field-row">
        <TextField
          name="config.portal_branding.name"
          label="Portal name"
          hint="Shown in the portal's header; empty: the portal link's name"
        />
        <TextField
          name="config.portal_branding.logo_url"
          label="Logo URL"
          type="url"
          hint="An https image URL"
        />
      </div>
      <div class="field-row">
        <TextField
          name="config.portal_branding.primary_color"
          label="Accent colour"
          placeholder="#1f4fc4"
          hint="#rrggbb: buttons and links"
        />
        <TextField
          name="config.portal_branding.background_color"
          label="Background colour"
          placeholder="#f6f8fb"
          hint="#rrggbb"
        />
      </div>
    </fieldset>
  );
}

function MetaEventsFieldset() {
  return (
    <fieldset>
      <legend>Meta events</legend>
      <CheckField name="config.meta_event.is_enabled" label="Send meta events" />
      <div class="field-row">
        <TextField name="config.meta_event.url" label="Meta events URL" type="url" />
        <TextField
          name="config.meta_event.secret"
          label="Meta events secret"
          type="password"
          hint="Generated when meta events are turned on without one"
        />
      </div>
      <fieldset>
        <legend>Meta event types</legend>
        {META_EVENT_TYPES.map((t) => (
          <CheckField key={t} name={metaType(t)} label={t} />
        ))}
      </fieldset>
    </fieldset>
  );
}

function SettingsFields({ v }: { v: Values }) {
  return (
    <>
      <GeneralFields />
      <SignatureFieldset rows={Number(v[VERSION_ROWS])} />
      <EndpointsFieldset />
      <ValidationFieldset />
      <BrandingFieldset />
      <MetaEventsFieldset />
    </>
  );
}

/** A project's name, type and settings (signature versions, retention, meta events…). */
export function ProjectSettingsForm({ project, onSaved }: { project: Project; onSaved: () => void }) {
  const ctx = useConsole();
  return (
    <Form
      id="project-form"
      label="Project settings"
      operation={api.updateProject}
      initial={valuesOf(project)}
      submitLabel="Save settings"
      onSubmit={async (v) => {
        await ctx.call(api.updateProject, { params: { projectID: project.uid }, body: bodyOf(v) });
        ctx.notify('Settings saved');
        onSaved();
      }}
    >
      {(v) => <SettingsFields v={v} />}
    </Form>
  );
}
