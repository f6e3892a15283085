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
  kind: enumOf(['admin', 'project']),
  project_id: nullable(str()),
  role: enumOf(ROLES),
  /** What the session may call: the console hides what needs another permission. */
  permissions: Type.Array(enumOf(PERMISSIONS)),
  view_payloads: bool,
  expires_at: timestamp,
  csrf_token: str({ description: 'send it in the header `csrf_header` names on every state-changing call' }),
  csrf_header: str(),
});
export type ConsoleSessionResponse = Static<typeof consoleSessionResponse>;
