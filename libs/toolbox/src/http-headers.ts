/**
 * Headers as one string per lower-case name: repeated headers joined with ", " (set-cookie
 * included), absent ones left out. How a received request's headers and an endpoint's response
 * headers are kept.
 */
export function normaliseHeaders(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}
