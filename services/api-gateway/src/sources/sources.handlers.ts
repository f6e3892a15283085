import { NotFoundError } from '@hookrail/domain';
import { parsePageQuery, type SourceDoc, type SourceListFilter } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { presentSource } from './source.presenter';
import { createSource, deleteSource, updateSource } from './sources.usecase';
import { sourceOperations, type SourceUpdateBody } from '@hookrail/api-contract';
import type { Call, Handlers } from '../http/call';

export function sourceHandlers(deps: GatewayDeps): Handlers<typeof sourceOperations> {
  const { store } = deps;
  const present = (doc: SourceDoc) => presentSource(doc, deps);
  const withHealth = async (doc: SourceDoc) =>
    presentSource(
      doc,
      deps,
      runsInConsumer(doc) ? await store.sourceHealth.find(doc.project_id, doc._id) : undefined,
    );
  const update = async ({ project, params, body }: Call<SourceUpdateBody>) =>
    withHealth(await updateSource(deps, project._id, params.sourceID, body));
  return {
    createSource: async ({ project, body }) => present(await createSource(deps, project._id, body)),
    async listSources({ project, query }) {
      const filter: SourceListFilter = {};
      if (query.type !== undefined) filter.type = query.type as SourceDoc['type'];
      if (query.provider !== undefined) filter.provider = String(query.provider);
      if (query.name !== undefined) filter.name = String(query.name);
      const page = await store.sources.page(project._id, filter, parsePageQuery(query));
      const brokers = page.content.filter(runsInConsumer).map((d) => d._id);
      const health = new Map(
        (await store.sourceHealth.findMany(project._id, brokers)).map((h) => [h._id, h]),
      );
      return {
        content: page.content.map((d) =>
          presentSource(d, deps, runsInConsumer(d) ? (health.get(d._id) ?? null) : undefined),
        ),
        pagination: page.pagination,
      };
    },
    async getSource({ project, params }) {
      const doc = await store.sources.findById(project._id, params.sourceID);
      if (!doc) throw new NotFoundError('source');
      return withHealth(doc);
    },
    updateSource: update,
    updateSourcePost: update,
    async deleteSource({ project, params }) {
      await deleteSource(deps, project._id, params.sourceID);
      return null;
    },
  };
}

/** Sources source-consumer runs (brokers, database change streams): they report a health state. */
function runsInConsumer(doc: SourceDoc): boolean {
  return doc.type === 'pub_sub' || doc.type === 'db_change_stream';
}
