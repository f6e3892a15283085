import { Allowed } from '../../components/grants';
import type { BodyOf, ResponseOf } from '@hookrail/api-contract';
import { useState } from 'preact/hooks';
import { Badge } from '../../components/Badge';
import { confirmAction } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import type { Values } from '../../components/form/context';
import { CheckField, TextField } from '../../components/form/fields';
import { Form } from '../../components/form/Form';
import { field, flag, json, jsonField, text } from '../../components/form/values';
import { Loaded } from '../../components/Loaded';
import { useLoad } from '../../components/useLoad';
import { act } from '../actions';
import { api } from '../api';
import { pageProject, useConsole } from '../context';
import { Link } from '../Link';
import { navigate } from '../location';
import { Screen } from '../Screen';

type EventType = ResponseOf<typeof api.getEventType>;
type ImportPlan = Extract<ResponseOf<typeof api.importEventTypes>, { dry_run: true }>;

const section = (pid: string) => `${pageProject(pid)}/event-types`;

/** The project's event catalog: each type, its category, whether it has a schema, and its state. */
export function EventTypesView({ pid }: { pid: string }) {
  const ctx = useConsole();
  const base = section(pid);
  const load = useLoad(() => ctx.call(api.listEventTypes, { params: { projectID: pid } }), [pid, ctx.tick]);
  return (
    <Screen title="Event types">
      <div class="toolbar">
        <Allowed op={api.createEventType}>
          <Link class="button primary" href={`${base}/new`}>
            New event type
          </Link>
        </Allowed>
        <Allowed op={api.importEventTypes}>
          <Link class="button" href={`${base}/import`}>
            Import a document
          </Link>
        </Allowed>
      </div>
      <Loaded load={load}>
        {(types) => (
          <DataTable<EventType>
            id="event-types"
            rows={types}
            rowProps={(t) => ({ 'data-type': t.name })}
            empty="No event types yet: create one, or import them from an OpenAPI or AsyncAPI document."
            columns={[
              { label: 'Name', cell: (t) => <Link href={`${base}/${t.uid}`}>{t.name}</Link> },
              { label: 'Category', cell: (t) => t.category || '—' },
              { label: 'Description', cell: (t) => t.description || '—' },
              { label: 'Schema', cell: (t) => (t.json_schema ? 'yes' : '—') },
              {
                label: 'State',
                cell: (t) => (
                  <Badge status={t.deprecated ? 'paused' : 'active'}>
                    {t.deprecated ? 'deprecated' : 'current'}
                  </Badge>
                ),
              },
            ]}
          />
        )}
      </Loaded>
    </Screen>
  );
}

function valuesOf(t?: EventType): Values {
  return {
    name: field(t?.name),
    description: field(t?.description),
    category: field(t?.category),
    json_schema: jsonField(t?.json_schema),
    example: jsonField(t?.example),
  };
}

/** The fields a create or an edit sends: empty ones are left out (an edit keeps them). */
function inputOf(v: Values) {
  return {
    description: text(v, 'description'),
    category: text(v, 'category'),
    json_schema: json<Record<string, unknown>>(v, 'json_schema'),
    example: json(v, 'example'),
  };
}

function EventTypeFields({ creating }: { creating: boolean }) {
  return (
    <>
      {creating && (
        <TextField name="name" label="Name" hint="e.g. invoice.paid; names are fixed once created" />
      )}
      <TextField name="description" label="Description" multiline />
      <TextField name="category" label="Category" />
      <TextField
        name="json_schema"
        label="JSON Schema of data"
        json
        hint="draft 2020-12; at most 64 KiB and 32 levels, local $ref only, patterns in RE2 syntax; {} removes it"
      />
      <TextField name="example" label="Example data" json hint="must match the schema" />
    </>
  );
}

export function NewEventTypeView({ pid }: { pid: string }) {
  const ctx = useConsole();
  return (
    <Screen title="New event type">
      <Form
        id="event-type-form"
        label="New event type"
        operation={api.createEventType}
        initial={valuesOf()}
        submitLabel="Create event type"
        onSubmit={async (v) => {
          const body: BodyOf<typeof api.createEventType> = { name: text(v, 'name') ?? '', ...inputOf(v) };
          const t = await ctx.call(api.createEventType, { params: { projectID: pid }, body });
          ctx.notify(`Event type ${t.name} created`);
          navigate(`${section(pid)}/${t.uid}`);
        }}
      >
        {() => <EventTypeFields creating />}
      </Form>
    </Screen>
  );
}

/** One event type, editable; deprecating keeps it for existing subscriptions but hides it from the portal. */
export function EditEventTypeView({ pid, id }: { pid: string; id: string }) {
  const ctx = useConsole();
  const params = { projectID: pid, eventTypeId: id };
  const load = useLoad(() => ctx.call(api.getEventType, { params }), [pid, id, ctx.tick]);
  return (
    <Loaded load={load}>
      {(t) => (
        <Screen title={`Event type ${t.name}`}>
          <div class="toolbar">
            <Link href={section(pid)}>← All event types</Link>
            {t.deprecated ? (
              <Allowed op={api.updateEventType}>
                <button
                  type="button"
                  onClick={() =>
                    act(
                      ctx,
                      () => ctx.call(api.updateEventType, { params, body: { deprecated: false } }),
                      'Event type made current again',
                    )
                  }
                >
                  Make current
                </button>
              </Allowed>
            ) : (
              <Allowed op={api.deprecateEventType}>
                <button
                  type="button"
                  onClick={() =>
                    act(ctx, () => ctx.call(api.deprecateEventType, { params }), 'Event type deprecated')
                  }
                >
                  Deprecate
                </button>
              </Allowed>
            )}
            <Allowed op={api.deleteEventType}>
              <button
                type="button"
                class="danger"
                onClick={async () => {
                  if (!(await confirmAction(`Delete event type ${t.name}?`, 'Delete event type'))) return;
                  if (await act(ctx, () => ctx.call(api.deleteEventType, { params }), 'Event type deleted'))
                    navigate(section(pid));
                }}
              >
                Delete
              </button>
            </Allowed>
          </div>
          <p>
            <Badge status={t.deprecated ? 'paused' : 'active'}>
              {t.deprecated ? 'deprecated' : 'current'}
            </Badge>
          </p>
          <Form
            key={t.updated_at}
            id="event-type-form"
            label={`Edit event type ${t.name}`}
            operation={api.updateEventType}
            initial={valuesOf(t)}
            submitLabel="Save event type"
            onSubmit={async (v) => {
              await ctx.call(api.updateEventType, { params, body: inputOf(v) });
              ctx.notify('Event type saved');
              ctx.refresh();
            }}
          >
            {() => <EventTypeFields creating={false} />}
          </Form>
        </Screen>
      )}
    </Loaded>
  );
}

function PlanList({ id, title, names }: { id: string; title: string; names: string[] }) {
  return (
    <div id={id}>
      <h3>
        {title} ({names.length})
      </h3>
      {names.length > 0 && (
        <ul>
          {names.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What a dry run reported: the types the import would create, change (and which fields), and remove. */
function ImportPlanView({ plan }: { plan: ImportPlan }) {
  return (
    <section id="import-plan" aria-label="What the import would do">
      <PlanList id="plan-created" title="Would create" names={plan.created.map((c) => c.name)} />
      <PlanList
        id="plan-changed"
        title="Would change"
        names={plan.changed.map((c) => `${c.name}: ${c.fields.join(', ')}`)}
      />
      <PlanList id="plan-removed" title="Would remove" names={plan.removed.map((c) => c.name)} />
      <PlanList id="plan-unchanged" title="Unchanged" names={plan.unchanged.map((c) => c.name)} />
    </section>
  );
}

/**
 * Imports event types from an OpenAPI 3.x (webhooks / x-webhooks) or AsyncAPI 2/3 document, pasted
 * as JSON or YAML: "Preview" runs the import as a dry run and shows its plan; "Import" applies it.
 */
export function ImportEventTypesView({ pid }: { pid: string }) {
  const ctx = useConsole();
  const [plan, setPlan] = useState<ImportPlan | null>(null);
  const [preview, setPreview] = useState(true);
  return (
    <Screen title="Import event types">
      <div class="toolbar">
        <Link href={section(pid)}>← All event types</Link>
      </div>
      <Form
        id="import-form"
        label="Import event types"
        operation={api.importEventTypes}
        initial={{ spec: '', replace_all: false }}
        submitLabel={preview ? 'Preview (dry run)' : 'Import'}
        onSubmit={async (v) => {
          const body = { spec: text(v, 'spec') ?? '', replace_all: flag(v, 'replace_all'), dry_run: preview };
          const out = await ctx.call(api.importEventTypes, { params: { projectID: pid }, body });
          if (preview) {
            setPlan(out as ImportPlan);
            return;
          }
          ctx.notify(`Imported ${(out as EventType[]).length} event types`);
          navigate(section(pid));
        }}
      >
        {() => (
          <>
            <TextField
              name="spec"
              label="Document"
              multiline
              hint="an OpenAPI 3.x document with webhooks (or x-webhooks), or an AsyncAPI 2.x/3.x document, as JSON or YAML"
            />
            <CheckField
              name="replace_all"
              label="Also remove the event types the document does not declare"
            />
            <fieldset>
              <legend>On submit</legend>
              <label class="check">
                <input type="radio" name="mode" checked={preview} onChange={() => setPreview(true)} /> Preview
                what would change
              </label>{' '}
              <label class="check">
                <input type="radio" name="mode" checked={!preview} onChange={() => setPreview(false)} />{' '}
                Import
              </label>
            </fieldset>
          </>
        )}
      </Form>
      {plan && <ImportPlanView plan={plan} />}
    </Screen>
  );
}
