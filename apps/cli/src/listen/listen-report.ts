import type { ListenAnswerBody, ListenDeliveryEvent } from '@hookrail/api-contract';
import type { Output } from '../output';
import { localTime } from '../output';

type LocalAnswer = Omit<ListenAnswerBody, 'request_id'>;

/** What `listen` tells its user: each delivery, and the connection's changes. */
export interface ListenReporter {
  started(info: {
    endpoint_id: string;
    name: string;
    event_types: string[];
    forward_to: string;
    changes: string[];
  }): void;
  connected(again: boolean): void;
  disconnected(reason: string, retryInMs: number): void;
  /** `reportError`: the answer could not be reported (the attempt then fails by timeout and is retried). */
  delivery(d: ListenDeliveryEvent, answer: LocalAnswer, reportError?: string): void;
  /** The end: the endpoint removed, kept (`--keep`), or left because removing it failed (`error`). */
  stopped(end: ListenEnd): void;
}

/** What `listen` did with its endpoint when it stopped. */
interface ListenEnd {
  endpoint_id: string;
  name: string;
  removed: boolean;
  error?: string;
}

/** For a person: a line per delivery on stdout (time, type, id, local status, latency); the rest on stderr. */
function humanReporter(out: Output): ListenReporter {
  return {
    started: (i) => {
      const changed = i.changes.length > 0 ? ` (${i.changes.join('; ')})` : '';
      out.err(`Endpoint ${i.name} (${i.endpoint_id})${changed}, event types ${i.event_types.join(', ')}`);
      out.err(`Forwarding to ${i.forward_to} — Ctrl-C to stop`);
    },
    connected: (again) => out.err(again ? 'Reconnected.' : 'Connected: waiting for deliveries.'),
    disconnected: (reason, ms) =>
      out.err(`Connection lost (${reason}); reconnecting in ${Math.round(ms / 1000)} s…`),
    delivery: (d, a, reportError) => {
      const outcome = a.error ? `${a.error.code} ${a.error.message}` : String(a.status);
      out.out(
        [
          localTime(new Date().toISOString()),
          d.event_type,
          d.delivery_id,
          `→ ${outcome}`,
          `${a.latency_ms} ms`,
        ].join('  '),
      );
      if (reportError)
        out.err(`  the answer could not be reported (${reportError}): the attempt will be retried`);
    },
    stopped: (end) => {
      const which = `endpoint ${end.name} (${end.endpoint_id})`;
      if (end.removed) out.err(`Removed ${which} and its subscriptions.`);
      else if (end.error)
        out.err(
          `Could not remove ${which}: ${end.error}. \`hookrail endpoints delete ${end.endpoint_id}\` removes it.`,
        );
      else out.err(`Kept ${which} (--keep).`);
    },
  };
}

/** For scripts: one JSON object per line, `type` saying which. */
function jsonReporter(out: Output): ListenReporter {
  const line = (type: string, fields: Record<string, unknown>) =>
    out.out(JSON.stringify({ type, time: new Date().toISOString(), ...fields }));
  return {
    started: (i) => line('started', i),
    connected: (again) => line('connected', { reconnected: again }),
    disconnected: (reason, ms) => line('disconnected', { reason, retry_in_ms: ms }),
    delivery: (d, a, reportError) =>
      line('delivery', {
        delivery_id: d.delivery_id,
        event_id: d.event_id,
        event_type: d.event_type,
        status: a.status,
        latency_ms: a.latency_ms,
        error: a.error,
        reported: reportError === undefined,
        ...(reportError !== undefined && { report_error: reportError }),
      }),
    stopped: (end) => line('stopped', { ...end }),
  };
}

export const listenReporter = (out: Output, json: boolean): ListenReporter =>
  json ? jsonReporter(out) : humanReporter(out);
