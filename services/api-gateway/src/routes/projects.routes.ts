import { NotFoundError, newProjectId, toTimestamp, type ProjectId } from '@hookrail/domain';
import { parsePageQuery } from '@hookrail/store';
import { Type } from '@sinclair/typebox';
import type { GatewayDeps } from '../deps';
import { route, type RouteFile } from '../http/legacy-route';
import { presentApiKey, presentProject } from '../presenters/project.presenter';
import { pageQuery } from '@hookrail/api-contract';
import {
  projectCreateBody,
  projectCreatedResponse,
  projectResponse,
  projectUpdateBody,
} from '@hookrail/api-contract';
import { issueApiKey } from '../usecases/issue-api-key.usecase';
import { fromConvoyConfig, mergeProjectConfig } from '../usecases/project-config';

const TAG = 'Projects';
const BASE = '/v1/projects';

export const projectRoutes: RouteFile<GatewayDeps> = ({ store, publisher, now }) => {
  const configChanged = (projectId: ProjectId, op: 'created' | 'updated' | 'deleted') =>
    publisher.publish('config', [{ project_id: projectId, resource: 'project', id: projectId, op }]);

  return [
    route({
      method: 'post',
      path: BASE,
      operationId: 'createProject',
      summary: 'Create a project (admin key); returns its first API key, shown only this once',
      tag: TAG,
      auth: 'admin',
      body: projectCreateBody,
      status: 201,
      message: 'Project created successfully',
      response: projectCreatedResponse,
      async handler({ body }) {
        const project = await store.projects.insert({
          _id: newProjectId(),
          name: body.name,
          type: body.type,
          config: mergeProjectConfig(undefined, fromConvoyConfig(body.config)),
        });
        const { doc, key } = await issueApiKey(store, project._id, { name: 'default' });
        await configChanged(project._id, 'created');
        const shown = presentProject(project);
        return { ...shown, project: shown, api_key: { ...presentApiKey(doc), key } };
      },
    }),
    {
      method: 'get',
      path: BASE,
      operationId: 'listProjects',
      summary: 'List projects (admin key)',
      tag: TAG,
      auth: 'admin',
      query: pageQuery,
      paginated: true,
      status: 200,
      message: 'Projects fetched successfully',
      response: projectResponse,
      async handler({ query }) {
        const page = await store.projects.page(parsePageQuery(query));
        return { content: page.content.map(presentProject), pagination: page.pagination };
      },
    },
    {
      method: 'get',
      path: `${BASE}/:projectID`,
      operationId: 'getProject',
      summary: 'Get a project',
      tag: TAG,
      auth: 'project',
      status: 200,
      message: 'Project fetched successfully',
      response: projectResponse,
      handler: async ({ project }) => presentProject(project),
    },
    route({
      method: 'put',
      path: `${BASE}/:projectID`,
      operationId: 'updateProject',
      summary: 'Update a project name, type or config (config members are merged)',
      tag: TAG,
      auth: 'project',
      body: projectUpdateBody,
      status: 202,
      message: 'Project updated successfully',
      response: projectResponse,
      async handler({ project, body }) {
        const updated = await store.projects.update(project._id, {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.type !== undefined && { type: body.type }),
          config: mergeProjectConfig(project.config, fromConvoyConfig(body.config)),
        });
        if (!updated) throw new NotFoundError('project');
        await configChanged(project._id, 'updated');
        return presentProject(updated);
      },
    }),
    {
      method: 'delete',
      path: `${BASE}/:projectID`,
      operationId: 'deleteProject',
      summary: 'Delete a project (admin key); its keys stop working at once',
      tag: TAG,
      auth: 'admin',
      status: 200,
      message: 'Project deleted successfully',
      response: Type.Object({ uid: Type.String(), deleted_at: Type.String() }),
      async handler({ project }) {
        await store.projects.softDelete(project._id);
        await configChanged(project._id, 'deleted');
        return { uid: project._id, deleted_at: toTimestamp(now()) };
      },
    },
  ];
};
