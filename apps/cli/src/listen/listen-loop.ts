import { managementOperations as api, type Caller, type ListenDeliveryEvent } from '@hookrail/api-contract';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CliConfig } from '../config-file';
import { EXIT } from '../exit-codes';
import { forwardToLocal } from './forward';
import { openListenStream, reconnectDelayMs, SILENCE_MS } from './listen-stream';
import type { ListenReporter } from './listen-report';
import { serverEvents } from './sse';

export interface ListenLoopDeps {
  config: CliConfig;
  call: Caller;
  endpointID: string;
  localUrl: string;
  report: ListenReporter;
  /** Aborted by Ctrl-C: the loop ends and the command exits 0. */
  stop: AbortSignal;
}

/** One delivery: to the local URL, then its answer back to the gateway (the attempt's result). */
async function handleDelivery(deps: ListenLoopDeps, delivery: ListenDeliveryEvent): Promise<void> {
  const answer = await forwardToLocal(deps.localUrl, delivery);
  try {
    await deps.call(api.answerListenedDelivery, {
      params: { projectID: deps.config.project_id, endpointID: deps.endpointID },
      body: { request_id: delivery.request_id, ...answer },
    });
    deps.report.delivery(delivery, answer);
  } catch (err) {
    deps.report.delivery(delivery, answer, (err as Error).message);
  }
}

/** Reads one connection's events until it ends, fails or stays silent too long. */
async function consume(deps: ListenLoopDeps, body: ReadableStream<Uint8Array>, silence: AbortController) {
  let timer = setTimeout(() => silence.abort(), SILENCE_MS);
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => silence.abort(), SILENCE_MS);
  };
  try {
    for await (const e of serverEvents(body, alive)) {
      if (e.event === 'delivery') void handleDelivery(deps, JSON.parse(e.data) as ListenDeliveryEvent);
    }
    return 'the gateway closed the stream';
  } catch (err) {
    if (deps.stop.aborted) return 'stopped';
    return silence.signal.aborted ? `no heartbeat in ${SILENCE_MS / 1000} s` : (err as Error).message;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Holds the listen stream until stopped: reconnects with backoff when it drops (a gateway restart,
 * a network change) and says so. Deliveries attempted while disconnected fail and are retried by
 * the schedule, so none is lost. Only the first connection's failure to reach the gateway ends the
 * command (exit 4); a refusal (the key, the endpoint) ends it at any time.
 */
export async function listenLoop(deps: ListenLoopDeps): Promise<void> {
  let failures = 0;
  let connectedOnce = false;
  while (!deps.stop.aborted) {
    const silence = new AbortController();
    const opened = await openListenStream(
      deps.config,
      deps.endpointID,
      deps.localUrl,
      AbortSignal.any([deps.stop, silence.signal]),
    ).catch((err: unknown) => {
      if (deps.stop.aborted) return null;
      throw err;
    });
    if (!opened) return;
    if (opened.ok) {
      failures = 0;
      deps.report.connected(connectedOnce);
      connectedOnce = true;
      const why = await consume(deps, opened.body, silence);
      if (deps.stop.aborted) return;
      deps.report.disconnected(why, reconnectDelayMs(0));
    } else {
      if (!connectedOnce && opened.retry.code === EXIT.unreachable) throw opened.retry;
      deps.report.disconnected(opened.retry.message, reconnectDelayMs(failures));
    }
    await sleep(reconnectDelayMs(failures++), undefined, { signal: deps.stop }).catch(() => undefined);
  }
}
