import type { RefObject } from 'preact';
import { useEffect, useMemo, useRef, useState, type Dispatch, type StateUpdater } from 'preact/hooks';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { GrantsContext } from '../components/grants';
import { messageOf } from '../components/http';
import { Toast } from '../components/Toast';
import { Console, type ConsoleContext } from './context';
import { Link } from './Link';
import { navigate, useWhere, type Where } from './location';
import { ProjectPages } from './ProjectPages';
import {
  fetchSession,
  isExpiry,
  seesAllProjects,
  sessionClient,
  signOut,
  whoIs,
  type Session,
} from './session';
import { SignIn } from './SignIn';
import { ProjectsView } from './views/ProjectsView';

type Gate =
  | { kind: 'checking' }
  | { kind: 'signed-in'; session: Session }
  | { kind: 'signed-out'; heading: string; note?: string };

/** Sections whose data `?live=<seconds>` refreshes on a timer. */
const LIVE_SECTIONS = /^\/console\/projects\/[^/]+(\/endpoints\/[^/]+|\/events\/[^/]+|\/deliveries)?$/;

/** The operator console: the session gate, the header and the project's pages. */
export function App() {
  const where = useWhere();
  const [gate, setGate] = useState<Gate>({ kind: 'checking' });
  const [tick, setTick] = useState(0);
  const [toast, setToast] = useState({ message: '', serial: 0 });
  const main = useRef<HTMLElement>(null);
  useSessionCheck(setGate);

  const ctx = useMemo<ConsoleContext | null>(() => {
    if (gate.kind !== 'signed-in') return null;
    return {
      session: gate.session,
      call: sessionClient(gate.session, (message) => setGate(expired(message))),
      where,
      tick,
      refresh: () => setTick((t) => t + 1),
      notify: (message) => setToast((t) => ({ message, serial: t.serial + 1 })),
    };
  }, [gate, where, tick]);

  // A new page takes the keyboard focus to its content (a live refresh does not).
  const page = `${where.path}?${where.query.toString()}`;
  useEffect(() => main.current?.focus(), [page, gate.kind]);
  useLiveRefresh(gate.kind === 'signed-in', where, setTick);

  const session = gate.kind === 'signed-in' ? gate.session : null;
  const parts = where.path.split('/').slice(2); // after /console
  useProjectKeyHome(session, where.path);

  return (
    <>
      <TopBar
        session={session}
        onSignedOut={() => setGate({ kind: 'signed-out', heading: 'Sign in', note: 'You are signed out.' })}
      />
      {gate.kind === 'checking' && (
        <main id="app">
          <p class="muted">Loading…</p>
        </main>
      )}
      {gate.kind === 'signed-out' && (
        <SignedOutPage gate={gate} onSignedIn={(s) => setGate({ kind: 'signed-in', session: s })} />
      )}
      {ctx && <SignedInPages ctx={ctx} parts={parts} main={main} />}
      <Toast message={toast.message} serial={toast.serial} />
      <ConfirmDialog />
    </>
  );
}

/** Asks once whether the browser holds a session: signed in, expired or never signed in. */
function useSessionCheck(setGate: (gate: Gate) => void) {
  useEffect(() => {
    fetchSession().then(
      (session) => setGate({ kind: 'signed-in', session }),
      (err: unknown) => {
        const message = messageOf(err);
        setGate(isExpiry(message) ? expired(message) : { kind: 'signed-out', heading: 'Sign in' });
      },
    );
  }, []);
}

/** `?live=<seconds>` (at least 5) bumps the tick on a timer in the sections that refresh live. */
function useLiveRefresh(signedIn: boolean, where: Where, setTick: Dispatch<StateUpdater<number>>) {
  const live = Number(where.query.get('live'));
  useEffect(() => {
    if (!signedIn || !(live >= 5) || !LIVE_SECTIONS.test(where.path)) return;
    const timer = setInterval(() => !document.hidden && setTick((t) => t + 1), live * 1000);
    return () => clearInterval(timer);
  }, [signedIn, live, where.path]);
}

/** A project key opens its own project only: the project list is not for it. */
function useProjectKeyHome(session: Session | null, path: string) {
  useEffect(() => {
    const parts = path.split('/').slice(2); // after /console
    if (session && !seesAllProjects(session) && (parts[0] !== 'projects' || !parts[1]))
      navigate(`/console/projects/${session.project_id}`, true);
  }, [session, path]);
}

/** The header: the console's name, who is signed in and the sign-out button. */
function TopBar({ session, onSignedOut }: { session: Session | null; onSignedOut: () => void }) {
  return (
    <header class="top">
      <Link class="brand" href="/console">
        Hookrail console
      </Link>
      <span id="who" class="muted">
        {session ? whoIs(session) : ''}
      </span>
      {session && (
        <button
          id="sign-out"
          type="button"
          onClick={async () => {
            await signOut(session).catch(() => undefined); // the cookie is cleared anyway
            history.pushState(null, '', '/console');
            onSignedOut();
          }}
        >
          Sign out
        </button>
      )}
    </header>
  );
}

function SignedOutPage({
  gate,
  onSignedIn,
}: {
  gate: Extract<Gate, { kind: 'signed-out' }>;
  onSignedIn: (session: Session) => void;
}) {
  return (
    <main id="app">
      <SignIn
        key={gate.heading + gate.note}
        heading={gate.heading}
        note={gate.note}
        onSignedIn={(s) => {
          // back to the link the sign-in interrupted
          const target = location.pathname.startsWith('/console/projects/')
            ? location.pathname + location.search
            : '/console';
          navigate(target, true);
          onSignedIn(s);
        }}
      />
    </main>
  );
}

/** A project's pages, or the project list (for the admin key) at /console. */
function SignedInPages({
  ctx,
  parts,
  main,
}: {
  ctx: ConsoleContext;
  parts: string[];
  main: RefObject<HTMLElement | null>;
}) {
  return (
    <Console.Provider value={ctx}>
      <GrantsContext.Provider value={grantsIn(ctx.session, parts[0] === 'projects' ? parts[1] : undefined)}>
        {parts[0] === 'projects' && parts[1] ? (
          // keyed by project: another project starts from its own loading state
          <ProjectPages
            key={parts[1]}
            pid={decodeURIComponent(parts[1])}
            section={parts[2] ?? 'overview'}
            id={parts[3]}
            action={parts[4]}
            main={main}
          />
        ) : (
          <div class="layout">
            <main id="app" tabIndex={-1} ref={main}>
              {seesAllProjects(ctx.session) && <ProjectsView />}
            </main>
          </div>
        )}
      </GrantsContext.Provider>
    </Console.Provider>
  );
}

/**
 * What the session may do on this page: a person's project grant there, else the session's own;
 * instance-wide operations always by the session's own (a project role does not reach them).
 */
function grantsIn(session: Session, projectId: string | undefined) {
  const grant = session.project_grants.find((g) => g.project_id === projectId);
  const instancePermissions = session.permissions;
  return grant
    ? { permissions: grant.permissions, instancePermissions, payloads: grant.view_payloads }
    : { permissions: session.permissions, instancePermissions, payloads: session.view_payloads };
}

function expired(message: string): Gate {
  return {
    kind: 'signed-out',
    heading: 'Session expired',
    note: `${message || 'Your console session has expired.'} Sign in again to continue where you were.`,
  };
}
