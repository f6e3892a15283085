import type { ListenAnswerBody, RelayAnswer, RelayRequestBody } from '@hookrail/api-contract';
import { DomainError, NotFoundError, RELAY_CREDENTIAL_HEADER, asProjectId, newId } from '@hookrail/domain';
import type { Store } from '@hookrail/store';
import type { Logger } from '@hookrail/telemetry';
import type { ListenerStream, Listeners } from './listeners';

/** Marks a call one replica forwarded to another: it is answered there, never forwarded again. */
export const FORWARDED_HEADER = 'x-hookrail-relay-forwarded';

export interface ListenerRoutingDeps {
  listeners: Listeners;
  store: Pick<Store, 'cliListeners'>;
  logger: Logger;
  /** This replica as the others reach it (HOOKRAIL_CLI_RELAY_ADVERTISE_URL). */
  selfUrl: string;
  instanceId: string;
  credential: string | undefined;
}

/**
 * `hookrail listen` over several gateway replicas: the stream is held by one, the dispatcher's relay
 * call and the CLI's answers may reach any. Each replica records the streams it holds in
 * `cli_listeners`; a call for a stream held elsewhere is forwarded once, with the internal
 * credential, to the holder's address.
 */
export class ListenerRouting {
  constructor(private readonly deps: ListenerRoutingDeps) {}

  /** A stream opened here: registered locally and claimed in the store; the function undoes both. */
  async opened(projectId: string, endpointId: string, stream: ListenerStream): Promise<() => Promise<void>> {
    const { listeners, store, selfUrl, instanceId } = this.deps;
    const pid = asProjectId(projectId);
    const listenerId = newId();
    const remove = listeners.add(projectId, endpointId, stream);
    await store.cliListeners.claim(pid, endpointId, {
      listener_id: listenerId,
      relay_url: selfUrl,
      instance_id: instanceId,
    });
    return async () => {
      remove();
      await store.cliListeners.release(pid, endpointId, listenerId);
    };
  }

  /** The dispatcher's attempt: to the stream here, else to the replica holding it. */
  async relay(projectId: string, endpointId: string, body: RelayRequestBody, forwarded: boolean) {
    if (this.deps.listeners.has(projectId, endpointId) || forwarded)
      return this.deps.listeners.relay(projectId, endpointId, body);
    const holder = await this.holder(projectId, endpointId);
    if (!holder) return this.deps.listeners.relay(projectId, endpointId, body); // refuses: none connected
    return (await this.forward(holder, endpointPath(projectId, endpointId), body, endpointId)) as RelayAnswer;
  }

  /** A listener's answer: to the attempt waiting here, else to the replica where it waits. */
  async answer(
    projectId: string,
    endpointId: string,
    body: ListenAnswerBody,
    forwarded: boolean,
  ): Promise<void> {
    if (this.deps.listeners.answer(projectId, endpointId, body)) return;
    const holder = forwarded ? null : await this.holder(projectId, endpointId);
    if (!holder)
      throw new NotFoundError('delivery waiting for this answer (it timed out, or was never sent here)');
    await this.forward(holder, `${endpointPath(projectId, endpointId)}/answers`, body, endpointId);
  }

  /** The other replica holding the endpoint's stream, if one does. */
  private async holder(projectId: string, endpointId: string): Promise<string | null> {
    const doc = await this.deps.store.cliListeners.find(asProjectId(projectId), endpointId);
    return doc && doc.relay_url !== this.deps.selfUrl ? doc.relay_url : null;
  }

  private async forward(holder: string, path: string, body: unknown, endpointId: string): Promise<unknown> {
    let res: Response;
    const timeoutMs = ((body as { timeout_ms?: number }).timeout_ms ?? 10_000) + 2_000;
    try {
      res = await fetch(`${holder}/relay${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [RELAY_CREDENTIAL_HEADER]: this.deps.credential ?? '',
          [FORWARDED_HEADER]: '1',
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      this.deps.logger.warn(
        { err, holder, endpoint_id: endpointId },
        'cli relay: the holding replica is unreachable',
      );
      throw new DomainError(
        'unavailable',
        `no hookrail listen reachable for endpoint ${endpointId} (its gateway replica ${holder} is unreachable)`,
      );
    }
    const envelope = (await res.json().catch(() => ({}))) as { message?: string; data?: unknown };
    if (res.ok) return envelope.data;
    const message = envelope.message || `the gateway replica ${holder} answered ${res.status}`;
    throw res.status === 404
      ? new DomainError('not_found', message)
      : new DomainError('unavailable', message);
  }
}

const endpointPath = (projectId: string, endpointId: string) =>
  `/v1/projects/${encodeURIComponent(projectId)}/endpoints/${encodeURIComponent(endpointId)}`;
