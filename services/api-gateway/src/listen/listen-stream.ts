import type { Request, Response } from 'express';
import type { ListenerStream } from './listeners';

/** A comment line this often keeps proxies from closing an idle stream and lets the CLI see a dead one. */
const HEARTBEAT_MS = 15_000;

/**
 * Turns the response into a server-sent event stream: `ready` at once, then whatever is sent,
 * a heartbeat comment every HEARTBEAT_MS. `closed` settles when either side ends it.
 */
export function openEventStream(
  req: Request,
  res: Response,
  ready: Record<string, unknown>,
): { stream: ListenerStream; closed: Promise<void> } {
  res.status(200).set({
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    // the socket goes with the stream: a stopping gateway must not get the reconnection on it
    connection: 'close',
  });
  res.flushHeaders();
  req.socket.setNoDelay(true);
  const write = (event: string, data: unknown) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  write('ready', ready);
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
  const closed = new Promise<void>((resolve) =>
    res.once('close', () => {
      clearInterval(heartbeat);
      resolve();
    }),
  );
  return { stream: { send: write, close: () => res.end() }, closed };
}
