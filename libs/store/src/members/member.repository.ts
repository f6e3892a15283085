import type { Role } from '@hookrail/api-contract';
import { newId, type ProjectId } from '@hookrail/domain';
import type { Connection, Model, QueryFilter } from 'mongoose';
import { ProjectScopedRepository } from '../base/project-scoped.repository';
import { memberModel, type MemberDoc } from './member.schema';

export class MemberRepository extends ProjectScopedRepository<MemberDoc> {
  constructor(conn: Connection) {
    super(memberModel(conn) as Model<MemberDoc>);
  }

  private byPerson(projectId: ProjectId, userId: string): QueryFilter<MemberDoc> {
    return this.scope(projectId, { user_id: userId });
  }

  /** The project's assignments, oldest first. */
  async list(projectId: ProjectId): Promise<MemberDoc[]> {
    return this.listWhere(projectId, {});
  }

  async roleOf(projectId: ProjectId, userId: string): Promise<Role | null> {
    return (await this.findOneWhere(projectId, { user_id: userId }))?.role ?? null;
  }

  /** Grants or changes the person's role here; returns the role before (null: none). */
  async assign(projectId: ProjectId, userId: string, role: Role): Promise<Role | null> {
    const now = new Date();
    const before = await this.model
      .findOneAndUpdate(
        this.byPerson(projectId, userId),
        {
          $set: { role, updated_at: now },
          $setOnInsert: { _id: newId(), created_at: now, deleted_at: null },
        },
        { upsert: true, returnDocument: 'before' },
      )
      .lean<MemberDoc>()
      .exec();
    return before?.role ?? null;
  }

  /** Removes the person's assigned role here; returns the role before (null: there was none). */
  async revoke(projectId: ProjectId, userId: string): Promise<Role | null> {
    const before = await this.model
      .findOneAndDelete(this.byPerson(projectId, userId))
      .lean<MemberDoc>()
      .exec();
    return before?.role ?? null;
  }

  /**
   * Every project where the person was assigned a role: the one read across projects, as a key's
   * lookup by id is, because it is what tells which projects the person may see at all.
   */
  async ofPerson(userId: string): Promise<Record<string, Role>> {
    const docs = await this.model
      .find({ user_id: userId }, { project_id: 1, role: 1 })
      .lean<MemberDoc[]>()
      .exec();
    return Object.fromEntries(docs.map((d) => [d.project_id, d.role]));
  }
}
