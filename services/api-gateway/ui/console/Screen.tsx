import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

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
