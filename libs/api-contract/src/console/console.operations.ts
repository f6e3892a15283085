import { Type } from '@sinclair/typebox';
import { defineOperations } from '../operation';
import {
  consoleSessionResponse,
  consoleSignInBody,
  consoleSignInOptionsResponse,
} from '../schemas/console.schema';

const tag = 'Console';

/**
 * The operator console's own operations (`/console`): its session. Everything else the console
 * does is the management API, called with the session cookie.
 */
export const consoleOperations = defineOperations('console', {
  signIn: {
    method: 'post',
    path: '/session',
    summary: 'Sign in with the admin key or a project API key: sets the HttpOnly session cookie',
    tag,
    auth: 'public',
    permission: 'none',
    changesConfiguration: false,
    body: consoleSignInBody,
    status: 201,
    message: 'Signed in',
    response: consoleSessionResponse,
  },
  signInOptions: {
    method: 'get',
    path: '/sign-in-options',
    summary: 'How to sign in: with a key (unless turned off), through single sign-on (when configured)',
    tag,
    auth: 'public',
    permission: 'none',
    changesConfiguration: false,
    status: 200,
    message: 'Sign-in options',
    response: consoleSignInOptionsResponse,
  },
  getSession: {
    method: 'get',
    path: '/session',
    summary: 'The current session',
    tag,
    auth: 'console',
    permission: 'none',
    changesConfiguration: false,
    status: 200,
    message: 'Session',
    response: consoleSessionResponse,
  },
  // Public: a missing, expired or broken session is simply cleared; a live one needs its CSRF header.
  signOut: {
    method: 'delete',
    path: '/session',
    summary: 'Sign out: clears the session cookie',
    tag,
    auth: 'public',
    permission: 'none',
    changesConfiguration: false,
    status: 200,
    message: 'Signed out',
    response: Type.Null(),
  },
});
