import { useEffect, useState } from 'preact/hooks';

/** A short-lived status message, announced politely to screen readers. */
export function Toast({ message, serial }: { message: string; serial: number }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!message) return;
    setShown(true);
    const t = setTimeout(() => setShown(false), 3500);
    return () => clearTimeout(t);
  }, [message, serial]);
  return (
    <div id="toast" role="status" aria-live="polite" class={shown ? 'show' : ''}>
      {shown ? message : ''}
    </div>
  );
}
