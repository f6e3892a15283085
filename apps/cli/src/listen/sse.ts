/** One server-sent event: its name (`message` when unnamed) and its data lines joined. */
export interface ServerEvent {
  event: string;
  data: string;
}

/**
 * Server-sent events read from a response body (the WHATWG format: `field: value` lines, a blank
 * line ends an event, `:` lines are comments). `onActivity` is told of every chunk, heartbeats
 * included, so a caller can tell a quiet stream from a dead one. The well-kept clients
 * (EventSource) send no Authorization header and hide the answer's status, which the CLI needs
 * for its exit codes: this is the few lines they would have saved.
 */
export async function* serverEvents(
  body: ReadableStream<Uint8Array>,
  onActivity: () => void = () => undefined,
): AsyncGenerator<ServerEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  for await (const chunk of body) {
    onActivity();
    buffer += decoder.decode(chunk, { stream: true });
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
  }
}
