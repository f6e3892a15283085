import { Type, type Static } from '@sinclair/typebox';
import { PERMISSIONS } from '../operation';
import { ROLES } from '../roles';
import { bool, enumOf, nullable, object, resource, str, timestamp } from './common.schema';

/** The console's sign-in: the admin key or a project API key, exchanged for a session cookie. */
export const consoleSignInBody = object(
  {
    key: str({
      minLength: 1,
      maxLength: 4000,
      pattern: '\\S',
      description: 'the admin key or a project API key',
    }),
  },
  ['key'],
);
export type ConsoleSignInBody = Static<typeof consoleSignInBody>;

/** A console session as sign-in and GET /console/session describe it (the cookie itself is HttpOnly). */
export const consoleSessionResponse = resource({
  kind: enumOf(['admin', 'project', 'user']),
  project_id: nullable(str()),
  /** A person signed in through single sign-on (`kind: user`): the provider's subject, e-mail, name. */
  user: nullable(resource({ id: str(), email: str(), name: str() })),
  role: enumOf(ROLES),
  /** What the session may call: the console hides what needs another permission. */
  permissions: Type.Array(enumOf(PERMISSIONS)),
  view_payloads: bool,
  /**
   * A person's projects whose mapping gives them another role than `role` (single sign-on): in
   * those projects the console follows these. Empty for key sessions.
   */
  project_grants: Type.Array(
    resource({
      project_id: str(),
      role: enumOf(ROLES),
      permissions: Type.Array(enumOf(PERMISSIONS)),
      view_payloads: bool,
    }),
  ),
  expires_at: timestamp,
  csrf_token: str({ description: 'send it in the header `csrf_header` names on every state-changing call' }),
  csrf_header: str(),
});
export type ConsoleSessionResponse = Static<typeof consoleSessionResponse>;

/** How the console's sign-in page offers to sign in: with a key, through single sign-on, or both. */
export const consoleSignInOptionsResponse = resource({
  key: bool,
  single_sign_on: nullable(resource({ login_url: str() })),
});
export type ConsoleSignInOptionsResponse = Static<typeof consoleSignInOptionsResponse>;
