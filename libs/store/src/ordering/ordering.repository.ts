import type { Connection, Model } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';
import { scopedIdsFilter, type ScopedId } from '../base/scoped-ids';
import { isDuplicateKey, rethrowTyped } from '../errors';
import {
  heldDeliveryModel,
  orderingKeyModel,
  type HeldDeliveryDoc,
  type OrderingKeyDoc,
} from './ordering.schema';

/** How many blocked keys one read returns at most (an endpoint's list, a sweep). */
const BLOCKED_LIMIT = 10_000;

function orderingKeyId(endpointId: string, key: string): string {
  return `${endpointId}/${key}`;
}

/**
 * The durable state of ordered delivery: blocked keys and the deliveries held behind them. Only
 * the dispatcher that owns an endpoint's partition writes its keys (one writer per key), except
 * `requestSkip`, which the API sets and the owner acts on.
 */
export class OrderingRepository {
  private readonly keys: Model<OrderingKeyDoc>;
  private readonly held: Model<HeldDeliveryDoc>;

  constructor(conn: Connection) {
    this.keys = orderingKeyModel(conn) as Model<OrderingKeyDoc>;
    this.held = heldDeliveryModel(conn) as Model<HeldDeliveryDoc>;
  }

  /** The blocked keys of one endpoint, oldest key first. */
  async ofEndpoint(projectId: ProjectId, endpointId: string): Promise<OrderingKeyDoc[]> {
    if (!projectId) throw new Error('project id is required for every query');
    return this.keys
      .find({ project_id: projectId, endpoint_id: endpointId })
      .sort({ _id: 1 })
      .limit(BLOCKED_LIMIT)
      .lean<OrderingKeyDoc[]>()
      .exec();
  }

  /** Every blocked key of a deployment, of every project (the sweep keeps those of endpoints it owns). */
  async allBlocked(deployment: string): Promise<OrderingKeyDoc[]> {
    return this.keys
      .find({ deployment })
      .sort({ updated_at: 1 })
      .limit(BLOCKED_LIMIT)
      .lean<OrderingKeyDoc[]>()
      .exec();
  }

  async findKey(projectId: ProjectId, endpointId: string, key: string): Promise<OrderingKeyDoc | null> {
    if (!projectId) throw new Error('project id is required for every query');
    return this.keys
      .findOne({ _id: orderingKeyId(endpointId, key), project_id: projectId })
      .lean<OrderingKeyDoc>()
      .exec();
  }

  /**
   * Writes keys' states (head, since, head status), in one round trip. An operator's pending skip
   * is kept, unless the head is new (`newHead`): a skip names the head it was asked for. In order,
   * so a key written twice keeps its last state.
   */
  async saveKeys(states: readonly KeyStateWrite[]): Promise<void> {
    if (states.length === 0) return;
    await this.keys
      .bulkWrite(
        states.map(({ newHead = false, ...state }) => ({
          updateOne: {
            filter: { _id: orderingKeyId(state.endpoint_id, state.key), project_id: state.project_id },
            update: {
              $set: {
                endpoint_id: state.endpoint_id,
                deployment: state.deployment,
                key: state.key,
                head: state.head,
                blocked_since: state.blocked_since,
                head_status: state.head_status,
                updated_at: new Date(),
                ...(newHead && { skip_requested_at: null }),
              },
              ...(!newHead && { $setOnInsert: { skip_requested_at: null } }),
            },
            upsert: true,
          },
        })),
        { ordered: true },
      )
      .catch(rethrowTyped);
  }

  /** Keys with nothing left waiting: their documents go, in one round trip. */
  async deleteKeys(
    refs: readonly { projectId: ProjectId; endpointId: string; key: string }[],
  ): Promise<void> {
    if (refs.length === 0) return;
    const ids = refs.map((r) => ({ projectId: r.projectId, id: orderingKeyId(r.endpointId, r.key) }));
    await this.keys.deleteMany(scopedIdsFilter(ids)).exec();
  }

  /** An operator asks to skip the key's head `head`; false when the key is not blocked by it. */
  async requestSkip(projectId: ProjectId, endpointId: string, key: string, head: string): Promise<boolean> {
    if (!projectId) throw new Error('project id is required for every query');
    const res = await this.keys
      .updateOne(
        { _id: orderingKeyId(endpointId, key), project_id: projectId, head },
        { $set: { skip_requested_at: new Date(), updated_at: new Date() } },
      )
      .exec();
    return res.matchedCount > 0;
  }

  /** In one round trip; idempotent: a delivery held again (a redelivered message) keeps its first place. */
  async hold(docs: readonly HeldDeliveryDoc[]): Promise<void> {
    if (docs.length === 0) return;
    try {
      await this.held.insertMany(docs, { ordered: false, lean: true });
    } catch (err) {
      if (!isDuplicateKey(err)) rethrowTyped(err);
    }
  }

  async findHeld(projectId: ProjectId, deliveryId: string): Promise<HeldDeliveryDoc | null> {
    if (!projectId) throw new Error('project id is required for every query');
    return this.held.findOne({ _id: deliveryId, project_id: projectId }).lean<HeldDeliveryDoc>().exec();
  }

  /** The held deliveries of an endpoint, or of one of its keys (its owning dispatcher keeps them in memory from here). */
  async heldOfEndpoint(projectId: ProjectId, endpointId: string, key?: string): Promise<HeldDeliveryDoc[]> {
    if (!projectId) throw new Error('project id is required for every query');
    return this.held
      .find({ project_id: projectId, endpoint_id: endpointId, ...(key !== undefined && { key }) })
      .lean<HeldDeliveryDoc[]>()
      .exec();
  }

  /** How many deliveries wait behind one key. */
  async countHeld(projectId: ProjectId, endpointId: string, key: string): Promise<number> {
    if (!projectId) throw new Error('project id is required for every query');
    return this.held.countDocuments({ project_id: projectId, endpoint_id: endpointId, key }).exec();
  }

  /** Held deliveries released (their messages are on their way), in one round trip. */
  async released(deliveries: readonly ScopedId[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.held.deleteMany(scopedIdsFilter(deliveries)).exec();
  }
}

/** A key's state as the owning dispatcher writes it; `newHead` clears a pending skip. */
export type KeyStateWrite = Pick<
  OrderingKeyDoc,
  'project_id' | 'endpoint_id' | 'deployment' | 'key' | 'head' | 'blocked_since' | 'head_status'
> & { newHead?: boolean };
