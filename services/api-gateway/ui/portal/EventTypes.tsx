import { when } from '../components/format';
import type { EventTypeSeen } from './api';

/** The event types the link's endpoints have been sent, each with when it was last. */
export function EventTypes({ types }: { types: EventTypeSeen[] }) {
  return (
    <section id="event-types-section" aria-labelledby="event-types-heading">
      <h2 id="event-types-heading">Event types sent so far</h2>
      <ul id="event-types" class="types">
        {types.length === 0 && <li class="muted">No event sent yet.</li>}
        {types.map((t) => (
          <li key={t.event_type} data-type={t.event_type} title={`last sent ${when(t.last_seen_at)}`}>
            {t.event_type}
          </li>
        ))}
      </ul>
    </section>
  );
}
