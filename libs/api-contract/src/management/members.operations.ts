import { Type } from '@sinclair/typebox';
import { defineOperations } from '../operation';
import { memberResponse, memberRoleBody } from '../schemas/member.schema';

const TAG = 'Members';
const PROJECT = '/v1/projects/:projectID/members';
const INSTANCE = '/v1/members';

/**
 * Roles assigned to people by an owner (docs/access.md): per project and on the whole instance.
 * Every person who signed in is listed; managing them is an owner's (`own`), as keys are.
 */
export const memberOperations = defineOperations('api', {
  listProjectMembers: {
    method: 'get',
    path: PROJECT,
    summary: 'Everyone who signed in, with their assigned, group and effective role in this project',
    tag: TAG,
    auth: 'project',
    permission: 'own',
    changesConfiguration: false,
    status: 200,
    message: 'Members fetched successfully',
    response: Type.Array(memberResponse),
  },
  getProjectMember: {
    method: 'get',
    path: `${PROJECT}/:userID`,
    summary: "A person's roles in this project",
    tag: TAG,
    auth: 'project',
    permission: 'own',
    changesConfiguration: false,
    status: 200,
    message: 'Member fetched successfully',
    response: memberResponse,
  },
  setProjectMemberRole: {
    method: 'put',
    path: `${PROJECT}/:userID`,
    summary: "Grant or change a person's role in this project (recorded as member.role_changed)",
    tag: TAG,
    auth: 'project',
    permission: 'own',
    changesConfiguration: false,
    body: memberRoleBody,
    status: 200,
    message: 'Member role set successfully',
    response: memberResponse,
  },
  revokeProjectMemberRole: {
    method: 'delete',
    path: `${PROJECT}/:userID`,
    summary: "Revoke the role assigned to a person in this project (their groups' role stays)",
    tag: TAG,
    auth: 'project',
    permission: 'own',
    changesConfiguration: false,
    status: 200,
    message: 'Member role revoked successfully',
    response: memberResponse,
  },
  listInstanceMembers: {
    method: 'get',
    path: INSTANCE,
    summary: 'Everyone who signed in, with their assigned, group and effective role on the instance',
    tag: TAG,
    auth: 'admin',
    permission: 'own',
    changesConfiguration: false,
    status: 200,
    message: 'Members fetched successfully',
    response: Type.Array(memberResponse),
  },
  getInstanceMember: {
    method: 'get',
    path: `${INSTANCE}/:userID`,
    summary: "A person's roles on the instance",
    tag: TAG,
    auth: 'admin',
    permission: 'own',
    changesConfiguration: false,
    status: 200,
    message: 'Member fetched successfully',
    response: memberResponse,
  },
  setInstanceMemberRole: {
    method: 'put',
    path: `${INSTANCE}/:userID`,
    summary: "Grant or change a person's role on the whole instance (recorded as member.role_changed)",
    tag: TAG,
    auth: 'admin',
    permission: 'own',
    changesConfiguration: false,
    body: memberRoleBody,
    status: 200,
    message: 'Member role set successfully',
    response: memberResponse,
  },
  revokeInstanceMemberRole: {
    method: 'delete',
    path: `${INSTANCE}/:userID`,
    summary: "Revoke the role assigned to a person on the instance (their groups' role stays)",
    tag: TAG,
    auth: 'admin',
    permission: 'own',
    changesConfiguration: false,
    status: 200,
    message: 'Member role revoked successfully',
    response: memberResponse,
  },
});
