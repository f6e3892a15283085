/**
 * The demo people: each signs in with their name as the password. Their `groups` claim is what
 * the gateway maps to roles (HOOKRAIL_OIDC_ROLE_MAPPING in deploy/local/up.sh).
 */
export interface DemoUser {
  sub: string;
  login: string;
  password: string;
  email: string;
  name: string;
  groups: string[];
}

export const DEMO_USERS: readonly DemoUser[] = [
  {
    sub: 'user-alice',
    login: 'alice',
    password: 'alice',
    email: 'alice@example.test',
    name: 'Alice Owner',
    groups: ['hookrail-owners'],
  },
  {
    sub: 'user-bob',
    login: 'bob',
    password: 'bob',
    email: 'bob@example.test',
    name: 'Bob Viewer',
    groups: ['hookrail-viewers'],
  },
  {
    // in a group no mapping names: signing in as carol shows the refusal (403 page, audit record)
    sub: 'user-carol',
    login: 'carol',
    password: 'carol',
    email: 'carol@example.test',
    name: 'Carol Marketing',
    groups: ['marketing'],
  },
];
