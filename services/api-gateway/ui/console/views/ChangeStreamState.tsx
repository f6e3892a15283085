import type { ResponseOf } from '@hookrail/api-contract';
import { Badge } from '../../components/Badge';
import { confirmAction } from '../../components/ConfirmDialog';
import { Allowed } from '../../components/grants';
import { act } from '../actions';
import { api } from '../api';
import { useConsole } from '../context';

type Source = ResponseOf<typeof api.getSource>;
type Health = NonNullable<Source['health']>;

const LABELS: Record<Health['state'], [string, string]> = {
  consuming: ['Running', 'active'],
  connecting: ['Connecting', 'paused'],
  stopped: ['Stopped (disabled)', 'paused'],
  unreachable: ['Error', 'inactive'],
  // The database no longer holds the stored resume point: the stream waits for a restart from now.
  resume_lost: ['Resume point lost', 'inactive'],
};

/** How far behind the stream is, as the consumer last recorded it (and in changes or WAL bytes). */
function Lag({ h }: { h: Health }) {
  if (h.state !== 'consuming' || h.lag_seconds === null) return null;
  const seconds = h.lag_seconds < 10 ? h.lag_seconds.toFixed(1) : Math.round(h.lag_seconds).toString();
  const bytes = h.behind_bytes === null ? '' : `, ${h.behind_bytes.toLocaleString('en')} bytes of WAL`;
  const changes =
    h.behind_changes === null || h.behind_changes === undefined
      ? ''
      : `, ${h.behind_changes.toLocaleString('en')}${h.behind_changes >= 100_000 ? '+' : ''} changes`;
  return (
    <p id="stream-lag" class="muted">
      Behind: {seconds} s{changes}
      {bytes}
    </p>
  );
}

function RestartFromNow({ pid, s }: { pid: string; s: Source }) {
  const ctx = useConsole();
  const restart = async () => {
    const question =
      'Read from now on? The changes made since the lost resume point are not sent (the database no longer holds them).';
    if (!(await confirmAction(question, 'Restart from now'))) return;
    const { restart_requested_at: _asked, type, database, ...settings } = s.db_change_stream!;
    // No connection string: the API keeps the stored one.
    const body = {
      db_change_stream: { ...settings, type: type!, database: database!, restart_from_now: true },
    };
    await act(
      ctx,
      () => ctx.call(api.updateSource, { params: { projectID: pid, sourceID: s.uid }, body }),
      'Change stream restarted from now',
    );
  };
  return (
    <Allowed op={api.updateSource}>
      <button type="button" id="restart-from-now" onClick={restart}>
        Restart from now
      </button>
    </Allowed>
  );
}

/** A change stream source's state: running, its resume point lost (with the way out) or its error. */
export function ChangeStreamState({ pid, s }: { pid: string; s: Source }) {
  const h = s.health;
  if (!h)
    return (
      <p id="stream-state" class="muted">
        Change stream not started yet (no source-consumer has reported on it)
      </p>
    );
  const lost = h.state === 'resume_lost';
  const [label, status] = LABELS[h.state];
  return (
    <div id="stream-state" role="status">
      <p>
        Change stream <Badge status={status}>{label}</Badge>
        {h.error && <span class="mono"> {h.error}</span>}
      </p>
      <Lag h={h} />
      {lost && <RestartFromNow pid={pid} s={s} />}
    </div>
  );
}
