import type { ItemOf } from '@hookrail/api-contract';
import { when } from '../../components/format';
import { JsonView } from '../../components/JsonView';
import { api } from '../api';
import { ListView } from '../ListView';
import { Screen } from '../Screen';

type AuditRecord = ItemOf<typeof api.listProjectAuditLog>;

/** Who a record names: a key by its name, the admin key, a portal link; and through which surface. */
function actorText({ actor }: AuditRecord): string {
  const who =
    actor.kind === 'admin_key'
      ? 'admin key'
      : actor.kind === 'portal_link'
        ? `portal link ${actor.portal_link_id ?? ''}`
        : `key ${actor.key_name ?? actor.key_id ?? ''} (${actor.role ?? 'owner'})`;
  return `${actor.email ?? who} via ${actor.via}`;
}

/** What a record changed: the fields before → after, or for sent events the calls it counts. */
function changesCell(r: AuditRecord) {
  if (r.aggregate) {
    const { count, first_at, last_at, event_ids } = r.aggregate;
    const events =
      event_ids.length > 0 ? `; events ${event_ids.join(', ')}${count > event_ids.length ? ', …' : ''}` : '';
    return <span class="muted">{`${count} calls, ${when(first_at)} to ${when(last_at)}${events}`}</span>;
  }
  return r.changes ? <JsonView value={r.changes} /> : <span class="muted">{r.fields.join(', ')}</span>;
}

/** The project's audit log: every change, who made it, what changed; read only. */
export function AuditLogView({ pid }: { pid: string }) {
  return (
    <Screen title="Audit log">
      <ListView
        op={api.listProjectAuditLog}
        params={{ projectID: pid }}
        id="audit-log"
        empty="No change recorded yet."
        filters={[
          { key: 'actor', label: 'Actor (key or link id, or admin)' },
          { key: 'operation', label: 'Operation' },
          { key: 'resource', label: 'Resource (id or type)' },
        ]}
        columns={[
          { label: 'When', cell: (r) => when(r.created_at) },
          { label: 'Who', cell: actorText },
          { label: 'Operation', cell: (r) => r.operation },
          { label: 'Resource', cell: (r) => `${r.resource.type} ${r.resource.id ?? ''}` },
          { label: 'Status', cell: (r) => String(r.status) },
          { label: 'Changes', cell: changesCell },
          { label: 'From', cell: (r) => `${r.ip} ${r.user_agent}` },
        ]}
      />
    </Screen>
  );
}
