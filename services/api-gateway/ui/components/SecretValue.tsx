import { useState } from 'preact/hooks';
import { copyText } from './clipboard';

const MASK = '\u2022'.repeat(24);

/** A signing secret, masked until revealed, with a copy button (the value never needs showing). */
export function SecretValue(props: {
  value: string;
  onCopied: () => void;
  onCopyFailed: (message: string) => void;
}) {
  const [shown, setShown] = useState(false);
  return (
    <>
      <code class="mono secret-value">{shown ? props.value : MASK}</code>
      <button type="button" onClick={() => setShown(!shown)}>
        {shown ? 'Hide' : 'Reveal'}
      </button>
      <button
        type="button"
        onClick={() =>
          copyText(props.value).then(props.onCopied, (e: Error) => props.onCopyFailed(e.message))
        }
      >
        Copy
      </button>
    </>
  );
}
