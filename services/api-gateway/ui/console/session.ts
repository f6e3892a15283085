import { ApiError, HandledError, requestJson } from '../components/http';

/** The console session as GET/POST /console/session describe it. */
export interface Session {
  kind: 'admin' | 'project';
  project_id: string | null;
  expires_at: string;
  csrf_token: string;
  csrf_header: string;
}

/** Thrown by a call whose session has ended: the page shows the sign-in instead of an error. */
export class SessionEnded extends HandledError {}

/** The messages of a session that existed but no longer holds (as opposed to no session at all). */
export const isExpiry = (message: string) => /expired|no longer valid|invalid console session/.test(message);

export const fetchSession = () => requestJson<Session>('GET', '/console/session');
export const signIn = (key: string) => requestJson<Session>('POST', '/console/session', { body: { key } });
export const signOut = (session: Session) =>
  requestJson<null>('DELETE', '/console/session', { headers: { [session.csrf_header]: session.csrf_token } });

/**
 * A client of the management API (and the console's own actions) for a session: state-changing
 * calls carry the anti-CSRF header; a 401 reports the ended session and throws SessionEnded.
 */
export function sessionClient(session: Session, onEnded: (message: string) => void) {
  return async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const headers = method === 'GET' ? {} : { [session.csrf_header]: session.csrf_token };
    try {
      return await requestJson<T>(method, url, { headers, body });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        onEnded(err.message);
        throw new SessionEnded(err.message);
      }
      throw err;
    }
  };
}
export type Call = ReturnType<typeof sessionClient>;
