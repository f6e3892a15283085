import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify, type JWK } from 'jose';
import { randomBytes } from 'node:crypto';

export interface OAuth2ServerOptions {
  clientId: string;
  /** Accept `client_secret` equal to this. */
  clientSecret?: string;
  /** Accept a `client_assertion` JWT verifiable with this public JWK. */
  publicJwk?: JWK & { alg?: string };
  /** expires_in value in the response (in whatever unit the test says). */
  expiresIn?: number;
  /** Rename response fields, e.g. {access_token: 'token'}. */
  fieldNames?: { access_token?: string; token_type?: string; expires_in?: string };
  /** Delay before answering (to exercise single flight). */
  delayMs?: number;
}

export interface OAuth2Server {
  url: string;
  /** Every token issued, in order. */
  issued: string[];
  /** Every request's form fields. */
  requests: Record<string, string>[];
  close(): Promise<void>;
}

/** A real local OAuth2 token endpoint (client credentials with a secret or a JWT client assertion). */
export async function startOAuth2Server(opts: OAuth2ServerOptions): Promise<OAuth2Server> {
  const issued: string[] = [];
  const requests: Record<string, string>[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      void (async () => {
        const form = Object.fromEntries(new URLSearchParams(text));
        requests.push(form);
        const deny = (status: number, error: string) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error }));
        };
        if (form.grant_type !== 'client_credentials' || form.client_id !== opts.clientId) {
          return deny(400, 'invalid_request');
        }
        if (form.client_assertion) {
          if (!opts.publicJwk) return deny(401, 'invalid_client');
          try {
            const key = await importJWK(opts.publicJwk, opts.publicJwk.alg);
            const { payload } = await jwtVerify(form.client_assertion, key, { audience: `${url}/token` });
            if (payload.iss !== opts.clientId || payload.sub !== opts.clientId)
              return deny(401, 'invalid_client');
          } catch {
            return deny(401, 'invalid_client');
          }
        } else if (!opts.clientSecret || form.client_secret !== opts.clientSecret) {
          return deny(401, 'invalid_client');
        }
        const token = randomBytes(16).toString('hex');
        issued.push(token);
        const names = opts.fieldNames ?? {};
        const answer = () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              [names.access_token ?? 'access_token']: token,
              [names.token_type ?? 'token_type']: 'Bearer',
              [names.expires_in ?? 'expires_in']: opts.expiresIn ?? 3600,
            }),
          );
        };
        if (opts.delayMs) setTimeout(answer, opts.delayMs);
        else answer();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    issued,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
