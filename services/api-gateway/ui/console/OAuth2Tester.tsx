import type { BodyOf } from '@hookrail/api-contract';
import { useState } from 'preact/hooks';
import { messageOf } from '../components/http';
import { api } from './api';
import { useConsole } from './context';
import { SessionEnded } from './session';

type OAuth2 = BodyOf<typeof api.testOAuth2>['oauth2'];

/** Asks the token URL for a token with the OAuth2 settings being edited (the API's OAuth2 test). */
export function OAuth2Tester({ pid, oauth2 }: { pid: string; oauth2: () => OAuth2 }) {
  const ctx = useConsole();
  const [out, setOut] = useState<{ ok: boolean; text: string } | null>(null);
  const run = async () => {
    setOut(null);
    try {
      const r = await ctx.call(api.testOAuth2, { params: { projectID: pid }, body: { oauth2: oauth2() } });
      setOut(
        r.success
          ? {
              ok: true,
              text: `Token received (${r.token_type || 'token'}, expires ${r.expires_at || 'never'})`,
            }
          : { ok: false, text: `No token: ${r.error || r.message}` },
      );
    } catch (err) {
      if (!(err instanceof SessionEnded)) setOut({ ok: false, text: messageOf(err) });
    }
  };
  return (
    <div class="toolbar">
      <button type="button" id="oauth2-test" onClick={run}>
        Test the OAuth2 settings
      </button>
      <span id="oauth2-test-result" role="status" class={out && !out.ok ? 'field-error' : ''}>
        {out?.text ?? ''}
      </span>
    </div>
  );
}
