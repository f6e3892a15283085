import {
  consoleOperations,
  createCaller,
  type Caller,
  type ConsoleSessionResponse,
} from '@hookrail/api-contract';
import { ApiError, HandledError, requestJson } from '../components/http';

export type Session = ConsoleSessionResponse;

/** Thrown by a call whose session has ended: the page shows the sign-in instead of an error. */
export class SessionEnded extends HandledError {}

/** The messages of a session that existed but no longer holds (as opposed to no session at all). */
export const isExpiry = (message: string) => /expired|no longer valid|invalid console session/.test(message);

/** Calls made before there is a session (or to end it). */
const anonymous = createCaller((method, url, body) => requestJson(method, url, { body }));

export const fetchSession = () => anonymous(consoleOperations.getSession);
export const signIn = (key: string) => anonymous(consoleOperations.signIn, { body: { key } });
export const signOut = (session: Session) =>
  createCaller((method, url) =>
    requestJson(method, url, { headers: { [session.csrf_header]: session.csrf_token } }),
  )(consoleOperations.signOut);

/**
 * A caller of the management API (and the console's own actions) for a session: state-changing
 * calls carry the anti-CSRF header; a 401 reports the ended session and throws SessionEnded.
 */
export function sessionClient(session: Session, onEnded: (message: string) => void): Caller {
  return createCaller(async (method, url, body) => {
    const headers = method === 'GET' ? {} : { [session.csrf_header]: session.csrf_token };
    try {
      return await requestJson(method, url, { headers, body });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        onEnded(err.message);
        throw new SessionEnded(err.message);
      }
      throw err;
    }
  });
}
export type Call = Caller;
