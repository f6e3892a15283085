import type { ComponentChildren } from 'preact';
import { HandledError, messageOf } from './http';
import type { Load } from './useLoad';

/**
 * Renders `children(data)` once loaded; "Loading…" before, the error as an alert after a failure
 * (none for an error the page already handled).
 */
export function Loaded<T>({ load, children }: { load: Load<T>; children: (data: T) => ComponentChildren }) {
  if (load.state === 'loading') return <p class="muted">Loading…</p>;
  if (load.state === 'failed')
    return load.error instanceof HandledError ? null : (
      <div class="alert" role="alert">
        {messageOf(load.error)}
      </div>
    );
  return <>{children(load.data)}</>;
}
