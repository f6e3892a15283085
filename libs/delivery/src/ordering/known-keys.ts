import type { ProjectId } from '@hookrail/domain';
import type { OrderingKeyDoc, Store } from '@hookrail/store';
import type { Logger } from '@hookrail/telemetry';
import { adopted, lockKey, MOVED, type Admission, type KeyState } from './key-state';

/**
 * What this process knows of the ordering keys of the endpoints it owns: each blocked key's state,
 * read once per assignment (this process is their only writer), the heads it is sending, and the
 * generation (epoch) the knowledge belongs to.
 */
export class KnownKeys {
  /**
   * Counts rebalances: work that started under an earlier one writes nothing more (the new owner
   * may have read the keys already, and its sweep finishes what that work left).
   */
  private generation = 0;
  private states = new Map<string, KeyState>();
  private loaded = new Map<string, Promise<void>>();
  /** When this process read each endpoint's keys (it has owned the endpoint since). */
  private loadedAt = new Map<string, number>();
  /**
   * Heads this process is sending now (attempts whose outcome is not recorded yet): their key's
   * lock id, and the epoch that admitted them. Each entry ends with its send (`sent`).
   */
  readonly sendingHeads = new Map<string, { lockId: string; epoch: number }>();

  constructor(private readonly deps: { store: Store; logger: Logger; now: () => number }) {}

  get epoch(): number {
    return this.generation;
  }

  get(id: string): KeyState | undefined {
    return this.states.get(id);
  }

  set(state: KeyState): void {
    this.states.set(lockKey(state.endpointId, state.key), state);
  }

  delete(id: string): void {
    this.states.delete(id);
  }

  /** How many keys are written down (something held behind the head, or a head that waits). */
  durableCount(): number {
    return [...this.states.values()].filter((s) => s.durable).length;
  }

  /** When this process read the endpoint's keys (Infinity: not yet). */
  takenOverAt(endpointId: string): number {
    return this.loadedAt.get(endpointId) ?? Infinity;
  }

  /** Work of a generation that ended stops before it writes (see `epoch`). */
  fence(epoch: number): void {
    if (epoch !== this.generation) throw new Error(MOVED);
  }

  /** The key's head goes out now: its attempt is on its way until its send ends. */
  sendHead(state: KeyState): Admission {
    this.sendingHeads.set(state.head, {
      lockId: lockKey(state.endpointId, state.key),
      epoch: this.generation,
    });
    return { kind: 'send' };
  }

  /** A rebalance: what this process knew of its endpoints' keys is read again when next needed. */
  reset(): void {
    this.generation++;
    // Their messages are delivered again to the partitions' new owners (nothing was committed).
    for (const state of this.states.values())
      for (const w of state.waiting.splice(0)) w.reject(new Error(MOVED));
    this.states = new Map();
    this.loaded = new Map();
    this.loadedAt = new Map();
  }

  /** The endpoint's blocked keys, read once per assignment (this process is their only writer). */
  load(projectId: ProjectId, endpointId: string): Promise<void> {
    let loading = this.loaded.get(endpointId);
    if (!loading) {
      loading = this.read(projectId, endpointId).catch((err: unknown) => {
        this.loaded.delete(endpointId);
        throw err;
      });
      this.loaded.set(endpointId, loading);
    }
    return loading;
  }

  private async read(projectId: ProjectId, endpointId: string): Promise<void> {
    this.loadedAt.set(endpointId, this.deps.now());
    const [keys, held] = await Promise.all([
      this.deps.store.ordering.ofEndpoint(projectId, endpointId),
      this.deps.store.ordering.heldOfEndpoint(projectId, endpointId),
    ]);
    const byKey = new Map<string, typeof held>();
    for (const h of held) {
      const ofKey = byKey.get(h.key);
      if (ofKey) ofKey.push(h);
      else byKey.set(h.key, [h]);
    }
    for (const doc of keys) {
      const id = lockKey(endpointId, doc.key);
      if (!this.states.has(id)) this.states.set(id, adopted(doc, byKey.get(doc.key) ?? []));
    }
  }

  /**
   * One key read again, when what is stored shows this process's view is stale (see `decide` and
   * `settle`). The view stays when the stored head is the one it knows; otherwise the stored key
   * replaces it (what waited in memory on it is handled again by its consumer).
   */
  async reread(
    projectId: ProjectId,
    endpointId: string,
    key: string,
    known: KeyState | undefined,
  ): Promise<{ state?: KeyState; doc: OrderingKeyDoc | null }> {
    const [doc, held] = await Promise.all([
      this.deps.store.ordering.findKey(projectId, endpointId, key),
      this.deps.store.ordering.heldOfEndpoint(projectId, endpointId, key),
    ]);
    // a key this process follows in memory only has no document
    const storedHead = doc?.head ?? (known && !known.durable ? known.head : undefined);
    if (known && storedHead === known.head) return { state: known, doc };
    if (known) for (const w of known.waiting.splice(0)) w.reject(new Error('ordering key read again'));
    const id = lockKey(endpointId, key);
    if (!doc) {
      this.states.delete(id);
      return { doc };
    }
    this.deps.logger.info(
      { project_id: projectId, endpoint_id: endpointId, key, head: doc.head, was: known?.head ?? null },
      'ordering key moved on elsewhere (a hand-off): read again',
    );
    const state = adopted(doc, held);
    this.states.set(id, state);
    return { state, doc };
  }
}
