import { SecretValue } from '../components/SecretValue';
import { useConsole } from './context';

/** A key just issued: shown this once, masked until revealed, with its copy button. */
export function IssuedKey({ name, value }: { name: string; value: string }) {
  const ctx = useConsole();
  return (
    <div class="banner notice" id="issued-key" role="status">
      <p>
        API key <strong>{name}</strong>: copy it now, it is not shown again.
      </p>
      <span class="row-actions">
        <SecretValue
          value={value}
          onCopied={() => ctx.notify('Key copied')}
          onCopyFailed={(m) => ctx.notify(`Failed: ${m}`)}
        />
      </span>
    </div>
  );
}
