import { Type } from '@sinclair/typebox';
import { NotFoundError } from '@hookrail/domain';
import { parsePageQuery, type SourceDoc, type SourceListFilter } from '@hookrail/store';
import { PROVIDERS } from '@hookrail/signing';
import type { GatewayDeps } from '../deps';
import { route, type RouteFile } from '../http/legacy-route';
import { presentSource } from '../presenters/source.presenter';
import { enumOf, str } from '@hookrail/api-contract';
import { pageQuery } from '@hookrail/api-contract';
import { SOURCE_TYPES, sourceCreateBody, sourceResponse, sourceUpdateBody } from '@hookrail/api-contract';
import { createSource, deleteSource, updateSource } from '../usecases/sources.usecase';

const TAG = 'Sources';
const BASE = '/v1/projects/:projectID/sources';

export const sourceRoutes: RouteFile<GatewayDeps> = (deps) => {
  const { store } = deps;
  const present = (doc: SourceDoc) => presentSource(doc, deps);
  const withHealth = async (doc: SourceDoc) =>
    presentSource(
      doc,
      deps,
      doc.type === 'pub_sub' ? await store.sourceHealth.find(doc.project_id, doc._id) : undefined,
    );
  return [
    route({
      method: 'post',
      path: BASE,
      operationId: 'createSource',
      summary: 'Create a source (operation 1)',
      tag: TAG,
      auth: 'project',
      body: sourceCreateBody,
      status: 201,
      message: 'Source created successfully',
      response: sourceResponse,
      handler: async ({ project, body }) => present(await createSource(deps, project._id, body)),
    }),
    {
      method: 'get',
      path: BASE,
      operationId: 'listSources',
      summary: 'List sources',
      tag: TAG,
      auth: 'project',
      query: { ...pageQuery, type: enumOf(SOURCE_TYPES), provider: enumOf(PROVIDERS), name: str() },
      paginated: true,
      status: 200,
      message: 'Sources fetched successfully',
      response: sourceResponse,
      async handler({ project, query }) {
        const filter: SourceListFilter = {};
        if (query.type !== undefined) filter.type = query.type as SourceDoc['type'];
        if (query.provider !== undefined) filter.provider = String(query.provider);
        if (query.name !== undefined) filter.name = String(query.name);
        const page = await store.sources.page(project._id, filter, parsePageQuery(query));
        const brokers = page.content.filter((d) => d.type === 'pub_sub').map((d) => d._id);
        const health = new Map(
          (await store.sourceHealth.findMany(project._id, brokers)).map((h) => [h._id, h]),
        );
        return {
          content: page.content.map((d) =>
            presentSource(d, deps, d.type === 'pub_sub' ? (health.get(d._id) ?? null) : undefined),
          ),
          pagination: page.pagination,
        };
      },
    },
    {
      method: 'get',
      path: `${BASE}/:sourceID`,
      operationId: 'getSource',
      summary: 'Get a source',
      tag: TAG,
      auth: 'project',
      status: 200,
      message: 'Source fetched successfully',
      response: sourceResponse,
      async handler({ project, params }) {
        const doc = await store.sources.findById(project._id, params.sourceID);
        if (!doc) throw new NotFoundError('source');
        return withHealth(doc);
      },
    },
    route({
      method: 'put',
      path: `${BASE}/:sourceID`,
      operationId: 'updateSource',
      summary: 'Update a source, enable or disable it (operation 2)',
      tag: TAG,
      auth: 'project',
      body: sourceUpdateBody,
      status: 202,
      message: 'Source updated successfully',
      response: sourceResponse,
      handler: async ({ project, params, body }) =>
        withHealth(await updateSource(deps, project._id, params.sourceID, body)),
    }),
    {
      method: 'delete',
      path: `${BASE}/:sourceID`,
      operationId: 'deleteSource',
      summary: 'Delete a source',
      tag: TAG,
      auth: 'project',
      status: 200,
      message: 'Source deleted successfully',
      response: Type.Null(),
      async handler({ project, params }) {
        await deleteSource(deps, project._id, params.sourceID);
        return null;
      },
    },
  ];
};
