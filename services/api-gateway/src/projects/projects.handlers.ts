import { NotFoundError, newProjectId, toTimestamp, type ProjectId } from '@hookrail/domain';
import { parsePageQuery } from '@hookrail/store';
import type { GatewayDeps } from '../deps';
import { presentApiKey, presentProject } from './project.presenter';
import { issueApiKey } from './issue-api-key.usecase';
import { fromConvoyConfig, mergeProjectConfig } from './project-config';
import { projectOperations } from '@hookrail/api-contract';
import type { Handlers } from '../http/call';
import { visibleProjects } from '../auth/principal';

export function projectHandlers({ store, publisher, now }: GatewayDeps): Handlers<typeof projectOperations> {
  const configChanged = (projectId: ProjectId, op: 'created' | 'updated' | 'deleted') =>
    publisher.publish('config', [{ project_id: projectId, resource: 'project', id: projectId, op }]);
  return {
    async createProject({ body }) {
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
    async listProjects({ query, actor }) {
      const search = typeof query.q === 'string' ? query.q : undefined;
      // a person with roles in some projects only sees those (the admin key, an instance role: all)
      const page = await store.projects.page(parsePageQuery(query), search, visibleProjects(actor));
      return { content: page.content.map(presentProject), pagination: page.pagination };
    },
    getProject: async ({ project }) => presentProject(project),
    async updateProject({ project, body }) {
      const updated = await store.projects.update(project._id, {
        ...(body.name !== undefined && { name: body.name }),
        ...(body.type !== undefined && { type: body.type }),
        config: mergeProjectConfig(project.config, fromConvoyConfig(body.config)),
      });
      if (!updated) throw new NotFoundError('project');
      await configChanged(project._id, 'updated');
      return presentProject(updated);
    },
    async deleteProject({ project }) {
      await store.projects.softDelete(project._id);
      await configChanged(project._id, 'deleted');
      return { uid: project._id, deleted_at: toTimestamp(now()) };
    },
  };
}
