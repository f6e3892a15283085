import { copyText } from '../components/clipboard';
import { useConsole } from './context';

/** Copies a value and says so in the toast. */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const ctx = useConsole();
  return (
    <button
      type="button"
      aria-label={`Copy ${what}`}
      onClick={() =>
        copyText(text).then(
          () => ctx.notify(`${what} copied`),
          (e: Error) => ctx.notify(`Failed: ${e.message}`),
        )
      }
    >
      Copy
    </button>
  );
}
