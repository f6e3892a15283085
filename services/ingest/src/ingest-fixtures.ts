import { newId } from '@hookrail/domain';
import { DEFAULT_PROJECT_CONFIG, type SourceDoc, type Store } from '@hookrail/store';

/** Test arrangement: a project and an HTTP source inserted directly (the API is not under test). */
export async function createHttpSource(
  store: Store,
  over: Partial<Omit<SourceDoc, 'project_id'>> = {},
  project: { maxPayloadBytes?: number } = {},
): Promise<SourceDoc> {
  const projectId = newId();
  await store.projects.insert({
    _id: projectId,
    name: `ingest-test-${projectId}`,
    type: 'incoming',
    config: { ...DEFAULT_PROJECT_CONFIG, max_payload_bytes: project.maxPayloadBytes ?? 1024 * 1024 },
  });
  return store.sources.insert(projectId, {
    _id: newId(),
    name: 'http source',
    type: 'http',
    provider: null,
    provider_config: null,
    mask_id: newId().toLowerCase(),
    is_disabled: false,
    forward_headers: [],
    idempotency_keys: [],
    body_function: null,
    header_function: null,
    custom_response: null,
    pub_sub: null,
    verifier: null,
    ...over,
  });
}
