/** The names in a comma-separated list field's text. */
export const namesIn = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((t) => t.trim())
    .filter(Boolean);

/**
 * The event catalog's types as checkboxes that add their name to, or take it from, a
 * comma-separated event types field, which still takes patterns (`invoice.*`) and other names.
 */
export function CatalogChoices({
  id,
  names,
  value,
  onChange,
}: {
  id: string;
  names: readonly string[];
  value: string;
  onChange: (text: string) => void;
}) {
  if (names.length === 0) return null;
  const picked = namesIn(value);
  const toggle = (name: string, on: boolean) =>
    onChange((on ? [...picked, name] : picked.filter((n) => n !== name)).join(', '));
  return (
    <fieldset id={id} class="catalog-choices">
      <legend>From the event catalog</legend>
      {names.map((name) => (
        <label key={name} class="check">
          <input
            type="checkbox"
            value={name}
            checked={picked.includes(name)}
            onChange={(e) => toggle(name, e.currentTarget.checked)}
          />
          {name}
        </label>
      ))}
    </fieldset>
  );
}
