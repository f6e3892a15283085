import { Badge } from '../components/Badge';
import type { PortalEndpoint } from './api';

const BREAKER: Record<string, string> = { open: 'circuit open', half_open: 'circuit half-open' };

/** The endpoint's status and, when not closed, its circuit breaker. */
export function StateBadges({ e }: { e: PortalEndpoint }) {
  const b = e.circuit_breaker.state;
  return (
    <>
      <Badge status={e.status} />
      {BREAKER[b] && (
        <span class={`badge b-${b}`} data-breaker={b}>
          {BREAKER[b]}
        </span>
      )}
    </>
  );
}

/** Why: the status reason (paused through the portal...) and the open breaker's reason. */
export function StateReasons({ e }: { e: PortalEndpoint }) {
  const b = e.circuit_breaker;
  const lines = [e.status_reason, BREAKER[b.state] ? b.reason || BREAKER[b.state] : null].filter(Boolean);
  return (
    <>
      {lines.map((t) => (
        <div class="reason" key={t}>
          {t}
        </div>
      ))}
    </>
  );
}
