import { Type } from '@sinclair/typebox';
import { defineOperations } from '../operation';
import { pageQuery, searchQuery } from '../schemas/pagination.schema';
import {
  projectCreateBody,
  projectCreatedResponse,
  projectResponse,
  projectUpdateBody,
} from '../schemas/project.schema';

const TAG = 'Projects';
const BASE = '/v1/projects';

export const projectOperations = defineOperations('api', {
  createProject: {
    method: 'post',
    path: BASE,
    summary: 'Create a project (admin key); returns its first API key, shown only this once',
    tag: TAG,
    auth: 'admin',
    permission: 'own',
    changesConfiguration: false,
    body: projectCreateBody,
    status: 201,
    message: 'Project created successfully',
    response: projectCreatedResponse,
  },
  listProjects: {
    method: 'get',
    path: BASE,
    summary: 'List projects (admin key)',
    tag: TAG,
    auth: 'admin',
    permission: 'read',
    changesConfiguration: false,
    query: {
      ...pageQuery,
      q: searchQuery(
        'projects whose id is this text or whose name contains it, ignoring case; read in bounded steps, so a page may hold fewer items than perPage with has_next_page: follow next_page_cursor',
      ),
    },
    paginated: true,
    status: 200,
    message: 'Projects fetched successfully',
    response: projectResponse,
  },
  getProject: {
    method: 'get',
    path: `${BASE}/:projectID`,
    summary: 'Get a project',
    tag: TAG,
    auth: 'project',
    permission: 'read',
    changesConfiguration: false,
    status: 200,
    message: 'Project fetched successfully',
    response: projectResponse,
  },
  updateProject: {
    method: 'put',
    path: `${BASE}/:projectID`,
    summary: 'Update a project name, type or config (config members are merged)',
    tag: TAG,
    auth: 'project',
    permission: 'configure',
    changesConfiguration: true,
    body: projectUpdateBody,
    status: 202,
    message: 'Project updated successfully',
    response: projectResponse,
  },
  deleteProject: {
    method: 'delete',
    path: `${BASE}/:projectID`,
    summary: 'Delete a project (admin key); its keys stop working at once',
    tag: TAG,
    auth: 'admin',
    permission: 'own',
    changesConfiguration: true,
    status: 200,
    message: 'Project deleted successfully',
    response: Type.Object({ uid: Type.String(), deleted_at: Type.String() }),
  },
});
