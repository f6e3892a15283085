import { createCaller, readRefusal, refusalText, type Caller, type Envelope } from '@hookrail/api-contract';
import { CliError, EXIT } from './exit-codes';

/** How long one call may take before the CLI gives up on it. */
const CALL_TIMEOUT_MS = 30_000;

/**
 * A typed caller of the gateway's operations (the same contract the gateway serves and the
 * console calls), answering the envelope's `data`. Failures become CliErrors with their exit code.
 */
export function gatewayCaller(baseUrl: string, headers: Record<string, string>): Caller {
  const origin = baseUrl.replace(/\/+$/, '');
  return createCaller(async (method, url, body) => {
    let res: Response;
    try {
      res = await fetch(`${origin}${url}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch (err) {
      throw unreachable(origin, err);
    }
    if (res.ok) return ((await res.json().catch(() => ({}))) as Envelope).data;
    throw await refusal(res);
  });
}

/** A failure answer as the CliError it ends the command with: 401/403 exit 3, others exit 1. */
export async function refusal(res: Response): Promise<CliError> {
  const envelope = (await res.json().catch(() => undefined)) as Envelope | undefined;
  const message = `${res.status}: ${refusalText(readRefusal(envelope, res.statusText))}`;
  return new CliError(message, res.status === 401 || res.status === 403 ? EXIT.auth : EXIT.refused);
}

/** Why the gateway could not be reached, as the CliError of exit 4. */
export function unreachable(origin: string, err: unknown): CliError {
  const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
  return new CliError(`cannot reach the gateway at ${origin} (${cause})`, EXIT.unreachable);
}

/** The management API with a project key. */
export const projectCaller = (url: string, apiKey: string): Caller =>
  gatewayCaller(url, { authorization: `Bearer ${apiKey}` });
