import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { DemoUser } from './users';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid: string, error?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in · Hookrail dev identity provider</title></head>
<body><main><h1>Hookrail dev identity provider</h1>
<p>Demo users (the password is the name): alice (group hookrail-owners), bob (hookrail-viewers), carol (marketing, mapped to no role).</p>
${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}/login">
<label for="login">User name</label> <input id="login" name="login" autocomplete="username" required autofocus>
<label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form></main></body></html>`;
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > 10_000) break; // a login form is a few dozen bytes
  }
  return new URLSearchParams(text);
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

/**
 * The provider's interaction pages (oidc-provider leaves them to the application): a password
 * form; a right password finishes the login prompt. Consent is implied for the one first-party
 * client (see `loadExistingGrant` in provider.ts).
 */
export function interactionRoutes(provider: Provider, users: () => readonly DemoUser[]) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const m = /^\/interaction\/([\w-]+)(\/login)?$/.exec(req.url ?? '');
    if (!m) return false;
    const details = await provider.interactionDetails(req, res);
    if (req.method === 'GET') {
      send(res, 200, loginPage(details.uid));
      return true;
    }
    const form = await formBody(req);
    const user = users().find((u) => u.login === form.get('login') && u.password === form.get('password'));
    if (!user) {
      send(res, 401, loginPage(details.uid, 'Unknown user name or wrong password.'));
      return true;
    }
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: user.sub } },
      {
        mergeWithLastSubmission: false,
      },
    );
    return true;
  };
}
