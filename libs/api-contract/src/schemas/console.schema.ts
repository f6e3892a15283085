import type { Static } from '@sinclair/typebox';
import { object, str } from './common.schema';

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
