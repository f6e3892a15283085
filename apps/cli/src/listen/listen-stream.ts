import { managementOperations as api, operationUrl } from '@hookrail/api-contract';
import type { CliConfig } from '../config-file';
import type { CliError } from '../exit-codes';
import { refusal, unreachable } from '../gateway';

/**
 * Opens the endpoint's listen stream (server-sent events). A refusal the user must fix (the key,
 * the endpoint) is a CliError with its exit code; a gateway that is down, restarting (503) or
 * unreachable is `retry`: the caller waits and tries again.
 */
export async function openListenStream(
  config: CliConfig,
  endpointID: string,
  forwardTo: string,
  signal: AbortSignal,
): Promise<{ ok: true; body: ReadableStream<Uint8Array> } | { ok: false; retry: CliError }> {
  const origin = config.url.replace(/\/+$/, '');
  const path = operationUrl(
    api.listenEndpoint,
    { projectID: config.project_id, endpointID },
    { forward_to: forwardTo },
  );
  let res: Response;
  try {
    res = await fetch(`${origin}${path}`, {
      headers: { authorization: `Bearer ${config.api_key}`, accept: 'text/event-stream' },
      signal,
    });
  } catch (err) {
    return { ok: false, retry: unreachable(origin, err) };
  }
  if (res.ok && res.body) return { ok: true, body: res.body };
  const refused = await refusal(res);
  if (res.status >= 500 || res.status === 429) return { ok: false, retry: refused };
  throw refused;
}

/** Waits between reconnections: 1 s, doubling, at most 5 s (a restarting gateway is back in seconds). */
export const reconnectDelayMs = (failures: number): number => Math.min(1000 * 2 ** failures, 5_000);

/** A stream silent this long is taken for dead (the gateway writes a heartbeat every 15 s). */
export const SILENCE_MS = 45_000;
