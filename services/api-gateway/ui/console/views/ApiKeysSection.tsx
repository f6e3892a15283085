import type { ResponseOf } from '@hookrail/api-contract';
import { useState } from 'preact/hooks';
import { confirmAction } from '../../components/ConfirmDialog';
import { TextField } from '../../components/form/fields';
import { Form } from '../../components/form/Form';
import { num, text } from '../../components/form/values';
import { when } from '../../components/format';
import { messageOf } from '../../components/http';
import { act } from '../actions';
import { api } from '../api';
import { useConsole } from '../context';
import { ListView } from '../ListView';
import { SessionEnded } from '../session';
import { IssuedKey } from '../IssuedKey';

type Issued = ResponseOf<typeof api.createApiKey>;
type Key = ResponseOf<typeof api.listApiKeys>['content'][number];

/** The project's API keys: issue one (shown once), regenerate one (a new key, the old revoked), revoke one. */
export function ApiKeysSection({ pid }: { pid: string }) {
  const ctx = useConsole();
  const [issued, setIssued] = useState<Issued | null>(null);
  const params = { projectID: pid };

  const regenerate = async (k: Key) => {
    if (
      !(await confirmAction(`Regenerate key ${k.name}? The current key stops working at once.`, 'Regenerate'))
    )
      return;
    try {
      const fresh = await ctx.call(api.createApiKey, { params, body: { name: k.name } });
      await ctx.call(api.revokeApiKey, { params: { ...params, keyID: k.uid } });
      setIssued(fresh);
      ctx.notify('Key regenerated');
      ctx.refresh();
    } catch (err) {
      if (!(err instanceof SessionEnded)) ctx.notify(`Failed: ${messageOf(err)}`);
    }
  };

  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading">API keys</h2>
      {issued?.key && <IssuedKey name={issued.name} value={issued.key} />}
      <Form
        id="key-form"
        label="New API key"
        operation={api.createApiKey}
        initial={{ name: '', expires_in: '' }}
        submitLabel="Issue key"
        onSubmit={async (v) => {
          const k = await ctx.call(api.createApiKey, {
            params,
            body: { name: text(v, 'name')!, expires_in: num(v, 'expires_in') },
          });
          setIssued(k);
          ctx.notify('Key issued');
          ctx.refresh();
        }}
      >
        {() => (
          <div class="field-row">
            <TextField name="name" label="Key name" required />
            <TextField name="expires_in" label="Expires in (seconds)" type="number" hint="Empty: never" />
          </div>
        )}
      </Form>
      <ListView
        op={api.listApiKeys}
        params={params}
        id="api-keys"
        empty="No API keys."
        columns={[
          { label: 'Name', cell: (k) => k.name },
          { label: 'Created', cell: (k) => when(k.created_at) },
          { label: 'Expires', cell: (k) => (k.expires_at ? when(k.expires_at) : 'never') },
          { label: 'Last used', cell: (k) => (k.last_used_at ? when(k.last_used_at) : '—') },
          {
            label: 'Actions',
            hiddenLabel: true,
            cell: (k) => (
              <span class="row-actions">
                <button type="button" onClick={() => regenerate(k)}>
                  Regenerate
                </button>
                <button
                  type="button"
                  class="danger"
                  onClick={async () => {
                    if (await confirmAction(`Revoke key ${k.name}? It stops working at once.`, 'Revoke'))
                      await act(
                        ctx,
                        () => ctx.call(api.revokeApiKey, { params: { ...params, keyID: k.uid } }),
                        'Key revoked',
                      );
                  }}
                >
                  Revoke
                </button>
              </span>
            ),
          },
        ]}
      />
    </section>
  );
}
