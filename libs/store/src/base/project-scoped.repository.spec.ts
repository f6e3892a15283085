import { asProjectId, isId, newId, newProjectId } from '@hookrail/domain';
import type { Store } from '../store';
import { ProjectScopedRepository, type ScopedDoc } from './project-scoped.repository';

/**
 * Type-level proof, checked by `npm run typecheck` (tsconfig.json includes spec files): a
 * repository query does not compile without a branded project id. Never called.
 */
export function _queriesNeedAProjectId(store: Store, id: string): void {
  // @ts-expect-error a plain string is not a ProjectId
  void store.events.findById('plain-string', id);
  // @ts-expect-error an id that is not branded is not a ProjectId either
  void store.deliveries.listByEvents(newId(), [id]);
  // @ts-expect-error the branded id is required, not optional
  void store.endpoints.findById(undefined, id);
  // @ts-expect-error schedule deletes match each entry within its project
  void store.schedules.deleteByIds([id]);
  void store.events.findById(newProjectId(), id);
}

describe('ProjectId', () => {
  it('brands ids only: a non-id is refused where it enters', () => {
    const id = newId();
    expect(asProjectId(id)).toBe(id);
    expect(isId(newProjectId())).toBe(true);
    expect(() => asProjectId('plain-string')).toThrow('not a project id');
    expect(() => asProjectId('')).toThrow('not a project id');
  });

  it('puts the project id into every query the repository builds', async () => {
    const filters: unknown[] = [];
    const chain = { lean: () => chain, exec: async () => null };
    const model = { findOne: (filter: unknown) => (filters.push(filter), chain) };
    const repo = new ProjectScopedRepository<ScopedDoc>(model as never);
    const projectId = newProjectId();
    await repo.findById(projectId, 'doc-1');
    expect(filters).toEqual([{ _id: 'doc-1', project_id: projectId }]);
    // A cast past the type still meets the runtime guard.
    await expect(repo.findById('' as never, 'doc-1')).rejects.toThrow('project id is required');
  });
});
