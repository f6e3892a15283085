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
export const isExpiry = (message: string) =>
  /expired|no longer valid|invalid console session|ended this session/.test(message);

/** Calls made before there is a session (or to end it). */
const anonymous = createCaller((method, url, body) => requestJson(method, url, { body }));

export const fetchSession = () => anonymous(consoleOperations.getSession);
export const fetchSignInOptions = () => anonymous(consoleOperations.signInOptions);

/** The admin key, or a person with a role on the whole instance: sees every project. */
export const seesAllProjects = (session: Session) =>
  session.kind === 'admin' || (session.kind === 'user' && session.project_id === null);

/** Who the header says is signed in. */
export function whoIs(session: Session): string {
  if (session.user) return `Signed in as ${session.user.name || session.user.email} (${session.role})`;
  return session.kind === 'admin' ? 'Signed in with the admin key' : 'Signed in with a project key';
}
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
