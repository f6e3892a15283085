import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { messageOf } from '../shared/http';
import type { Load } from '../shared/useLoad';
import { SessionEnded } from './session';

/** A console screen: its heading and the browser tab's title. */
export function Screen({ title, children }: { title: string; children?: ComponentChildren }) {
  useEffect(() => void (document.title = `${title} · Hookrail console`), [title]);
  return (
    <>
      <h1>{title}</h1>
      {children}
    </>
  );
}

/** A failed load as an alert (an ended session needs none: the sign-in replaces the page). */
export function LoadError({ error }: { error: unknown }) {
  if (error instanceof SessionEnded) return null;
  return (
    <div class="alert" role="alert">
      {messageOf(error)}
    </div>
  );
}

/** Renders `children(data)` once loaded; "Loading…" before, the error after a failure. */
export function Loaded<T>({ load, children }: { load: Load<T>; children: (data: T) => ComponentChildren }) {
  if (load.state === 'loading') return <p class="muted">Loading…</p>;
  if (load.state === 'failed') return <LoadError error={load.error} />;
  return <>{children(load.data)}</>;
}
