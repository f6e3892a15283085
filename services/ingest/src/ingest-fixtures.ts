import type { SourceDoc, Store } from '@hookrail/store';
import { makeProject, makeSource } from '@hookrail/testkit';

/** Test arrangement: a project and an HTTP source inserted directly (the API is not under test). */
export async function createHttpSource(
  store: Store,
  over: Partial<Omit<SourceDoc, 'project_id'>> = {},
  project: { maxPayloadBytes?: number } = {},
): Promise<SourceDoc> {
  const projectId = await makeProject(store, { max_payload_bytes: project.maxPayloadBytes ?? 1024 * 1024 });
  return makeSource(store, projectId, { name: 'http source', ...over });
}
