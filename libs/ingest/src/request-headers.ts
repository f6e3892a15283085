/** The source's `forward_headers` that the request carried, by lower-case name. */
export function pickForwardHeaders(
  headers: Readonly<Record<string, string>>,
  names: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name.toLowerCase()];
    if (value !== undefined) out[name.toLowerCase()] = value;
  }
  return out;
}
