import type { Connection, Model } from 'mongoose';
import type { ProjectId } from '@hookrail/domain';
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
   * Writes the key's state (head, since, head status). An operator's pending skip is kept, unless
   * the head is new (`newHead`): a skip names the head it was asked for.
   */
  async saveKey(
    state: Pick<
      OrderingKeyDoc,
      'project_id' | 'endpoint_id' | 'deployment' | 'key' | 'head' | 'blocked_since' | 'head_status'
    >,
    newHead = false,
  ): Promise<void> {
    const { project_id, endpoint_id, key } = state;
    await this.keys
      .updateOne(
        { _id: orderingKeyId(endpoint_id, key), project_id },
        {
          $set: {
            endpoint_id,
            deployment: state.deployment,
            key,
            head: state.head,
            blocked_since: state.blocked_since,
            head_status: state.head_status,
            updated_at: new Date(),
            ...(newHead && { skip_requested_at: null }),
          },
          ...(!newHead && { $setOnInsert: { skip_requested_at: null } }),
        },
        { upsert: true },
      )
      .exec()
      .catch(rethrowTyped);
  }

  /** The key has nothing left waiting: its document goes. */
  async deleteKey(projectId: ProjectId, endpointId: string, key: string): Promise<void> {
    if (!projectId) throw new Error('project id is required for every query');
    await this.keys.deleteOne({ _id: orderingKeyId(endpointId, key), project_id: projectId }).exec();
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

  /** Idempotent: a delivery held again (a redelivered message) keeps its first place. */
  async hold(doc: HeldDeliveryDoc): Promise<void> {
    try {
      await this.held.insertMany([doc], { ordered: false, lean: true });
    } catch (err) {
      if (!isDuplicateKey(err)) rethrowTyped(err);
    }
  }

  async findHeld(projectId: ProjectId, deliveryId: string): Promise<HeldDeliveryDoc | null> {
    if (!projectId) throw new Error('project id is required for every query');
    return this.held.findOne({ _id: deliveryId, project_id: projectId }).lean<HeldDeliveryDoc>().exec();
  }

  /** The held deliveries of an endpoint (its owning dispatcher keeps them in memory from here). */
  async heldOfEndpoint(projectId: ProjectId, endpointId: string): Promise<HeldDeliveryDoc[]> {
    if (!projectId) throw new Error('project id is required for every query');
    return this.held
      .find({ project_id: projectId, endpoint_id: endpointId })
      .lean<HeldDeliveryDoc[]>()
      .exec();
  }

  /** How many deliveries wait behind one key. */
  async countHeld(projectId: ProjectId, endpointId: string, key: string): Promise<number> {
    if (!projectId) throw new Error('project id is required for every query');
    return this.held.countDocuments({ project_id: projectId, endpoint_id: endpointId, key }).exec();
  }

  /** The held delivery was released (its message is on the deliveries topic). */
  async released(projectId: ProjectId, deliveryId: string): Promise<void> {
    if (!projectId) throw new Error('project id is required for every query');
    await this.held.deleteOne({ _id: deliveryId, project_id: projectId }).exec();
  }
}
