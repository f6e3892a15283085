import { JsonView } from '../components/JsonView';
import type { PortalCatalogEntry } from './api';

/**
 * The event types an endpoint can subscribe to, from the project's catalog: each with its
 * description, an example payload and the schema its `data` follows. Nothing when the project
 * keeps no catalog (the types sent so far still show below).
 */
export function EventCatalog({ entries }: { entries: PortalCatalogEntry[] }) {
  if (entries.length === 0) return null;
  return (
    <section id="event-catalog-section" aria-labelledby="event-catalog-heading">
      <h2 id="event-catalog-heading">Event catalog</h2>
      <p class="muted">The events you can subscribe an endpoint to, and what their payloads contain.</p>
      <ul id="event-catalog" class="catalog">
        {entries.map((t) => (
          <li key={t.name} data-type={t.name}>
            <details>
              <summary>
                <code>{t.name}</code>
                {t.category && <span class="muted"> · {t.category}</span>}
                {t.description && <span> · {t.description}</span>}
              </summary>
              {t.example !== null && (
                <>
                  <h3>Example payload</h3>
                  <JsonView value={t.example} />
                </>
              )}
              {t.json_schema && (
                <>
                  <h3>Schema of data</h3>
                  <JsonView value={t.json_schema} />
                </>
              )}
              {t.example === null && !t.json_schema && <p class="muted">No example or schema given.</p>}
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}
