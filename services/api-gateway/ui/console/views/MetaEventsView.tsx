import { Badge } from '../../components/Badge';
import { when } from '../../components/format';
import { JsonView } from '../../components/JsonView';
import { act } from '../actions';
import { apiProject, useConsole } from '../context';
import { ListView } from '../ListView';
import { Screen } from '../Screen';

interface MetaEvent {
  uid: string;
  created_at: string;
  event_type: string;
  status: string;
  metadata?: { data?: unknown } | null;
}

export function MetaEventsView({ pid }: { pid: string }) {
  const ctx = useConsole();
  return (
    <Screen title="Meta events">
      <ListView<MetaEvent>
        path={`/projects/${encodeURIComponent(pid)}/meta-events`}
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
          { label: 'Status', cell: (m) => <Badge status={m.status} /> },
          { label: 'Payload', cell: (m) => <JsonView value={m.metadata?.data} /> },
          {
            label: 'Actions',
            hiddenLabel: true,
            cell: (m) => (
              <button
                type="button"
                onClick={() =>
                  act(
                    ctx,
                    () =>
                      ctx.call('PUT', `${apiProject(pid)}/meta-events/${encodeURIComponent(m.uid)}/resend`),
                    'Meta event resent',
                  )
                }
              >
                Resend
              </button>
            ),
          },
        ]}
      />
    </Screen>
  );
}
