import { serverEvents, type ServerEvent } from './sse';

function bodyOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
}

async function collect(chunks: string[]): Promise<{ events: ServerEvent[]; activity: number }> {
  const events: ServerEvent[] = [];
  let activity = 0;
  for await (const e of serverEvents(bodyOf(chunks), () => activity++)) events.push(e);
  return { events, activity };
}

describe('serverEvents', () => {
  it('reads named events split across chunks, skips comments, joins data lines', async () => {
    const { events, activity } = await collect([
      'event: ready\ndata: {"a"',
      ':1}\n\n: heartbeat\n\n',
      'event: delivery\r\ndata: line1\r\ndata: line2\r\n\r\n',
      'data: unnamed\n\n',
    ]);
    expect(events).toEqual([
      { event: 'ready', data: '{"a":1}' },
      { event: 'delivery', data: 'line1\nline2' },
      { event: 'message', data: 'unnamed' },
    ]);
    expect(activity).toBe(4);
  });

  it('drops an event cut off by the end of the stream', async () => {
    expect((await collect(['event: delivery\ndata: {"half"'])).events).toEqual([]);
  });
});
