import type { Role } from '@hookrail/api-contract';
import type { Connection, Model } from 'mongoose';
import { personModel, type GroupRoles, type PersonDoc } from './person.schema';

/** How many people a list reads at most: the people of one instance, not a customer base. */
const PEOPLE_LIMIT = 5_000;

export class PersonRepository {
  private readonly model: Model<PersonDoc>;

  constructor(conn: Connection) {
    this.model = personModel(conn) as Model<PersonDoc>;
  }

  async find(sub: string): Promise<PersonDoc | null> {
    return this.model.findOne({ _id: sub }).lean<PersonDoc>().exec();
  }

  /** Everyone who signed in, oldest first. */
  async list(): Promise<PersonDoc[]> {
    return this.model.find({}).sort({ _id: 1 }).limit(PEOPLE_LIMIT).lean<PersonDoc[]>().exec();
  }

  /** A verified sign-in (or renewal): who they are and what their groups give now. */
  async recordSignIn(
    sub: string,
    who: { email: string; name: string; groupRoles: GroupRoles },
    at: Date,
  ): Promise<PersonDoc> {
    const stored = await this.model
      .findOneAndUpdate(
        { _id: sub },
        {
          $set: {
            email: who.email,
            name: who.name,
            group_roles: who.groupRoles,
            last_sign_in_at: at,
            updated_at: at,
          },
          $setOnInsert: { instance_role: null, sessions_ended_at: null, created_at: at },
        },
        { upsert: true, returnDocument: 'after' },
      )
      .lean<PersonDoc>()
      .exec();
    return stored!;
  }

  /**
   * Sets (or with null clears) the role assigned on the instance. Returns the person as they were
   * before, for the audit record's before → after; null when nobody with this sub signed in.
   */
  async setInstanceRole(sub: string, role: Role | null): Promise<PersonDoc | null> {
    return this.model
      .findOneAndUpdate(
        { _id: sub },
        { $set: { instance_role: role, updated_at: new Date() } },
        { returnDocument: 'before' },
      )
      .lean<PersonDoc>()
      .exec();
  }

  /**
   * The provider ended the person's sessions (back-channel logout): older ones are refused.
   * Returns the person, or null when nobody with this sub signed in (no session to end).
   */
  async endSessions(sub: string, at: Date): Promise<PersonDoc | null> {
    return this.model
      .findOneAndUpdate(
        { _id: sub },
        { $set: { sessions_ended_at: at, updated_at: at } },
        { returnDocument: 'after' },
      )
      .lean<PersonDoc>()
      .exec();
  }
}
