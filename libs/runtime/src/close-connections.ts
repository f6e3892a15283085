import type { RequestHandler } from 'express';
import type { ServerResponse } from 'node:http';

/**
 * Node keeps serving a busy keep-alive connection after `server.close()`, with keep-alive, and a
 * client goes on sending on it to an instance that is stopping (behind a Kubernetes Service the
 * connection outlives the pod's removal from its endpoints). Once `closing()` is called, every
 * answer not yet begun says `Connection: close`, so each client moves to another instance after
 * the answer it is waiting for.
 */
export function connectionCloser(): { middleware: RequestHandler; closing(): void } {
  const answering = new Set<ServerResponse>();
  let closing = false;
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  return {
    middleware: (_req, res, next) => {
      if (closing) closeAfter(res);
      else {
        answering.add(res);
        res.once('close', () => answering.delete(res));
      }
      next();
    },
    closing: () => {
      closing = true;
      for (const res of answering) closeAfter(res);
      answering.clear();
    },
  };
}
