import { Allowed } from '../../components/grants';
import { Badge } from '../../components/Badge';
import { when } from '../../components/format';
import { JsonView } from '../../components/JsonView';
import { act } from '../actions';
import { useConsole } from '../context';
import { api } from '../api';
import { ListView } from '../ListView';
import { Screen } from '../Screen';

export function MetaEventsView({ pid }: { pid: string }) {
  const ctx = useConsole();
  return (
    <Screen title="Meta events">
      <ListView
        op={api.listMetaEvents}
        params={{ projectID: pid }}
        id="meta-events"
        empty="No meta events yet (configure them on the project)."
        filters={[
          { key: 'event_type', label: 'Event type' },
          {
            key: 'status',
            label: 'Status',
            options: ['Scheduled', 'Processing', 'Success', 'Failure', 'Retry', 'Discarded'],
          },
        ]}
        columns={[
          { label: 'Created', cell: (m) => when(m.created_at) },
          { label: 'Type', cell: (m) => m.event_type },
          {
            label: 'Status',
            // Discarded here means never sent (meta events off, or the type not selected): not a failure
            cell: (m) =>
              m.status === 'Discarded' ? (
                <>
                  <Badge status="not-sent">not sent</Badge>
                  {m.status_reason && <div class="muted">{m.status_reason}</div>}
                </>
              ) : (
                <Badge status={m.status} />
              ),
          },
          { label: 'Payload', cell: (m) => <JsonView value={m.metadata?.data} /> },
          {
            label: 'Actions',
            hiddenLabel: true,
            cell: (m) => (
              <Allowed op={api.resendMetaEvent}>
                <button
                  type="button"
                  onClick={() =>
                    act(
                      ctx,
                      () => ctx.call(api.resendMetaEvent, { params: { projectID: pid, metaEventID: m.uid } }),
                      'Meta event resent',
                    )
                  }
                >
                  Resend
                </button>
              </Allowed>
            ),
          },
        ]}
      />
    </Screen>
  );
}
