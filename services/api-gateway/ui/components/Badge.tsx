import type { ComponentChildren } from 'preact';

/** A status pill; its colour comes from the stylesheet's `s-<status>` class. */
export function Badge({ status, children }: { status: string; children?: ComponentChildren }) {
  return <span class={`badge s-${status}`}>{children ?? status}</span>;
}
