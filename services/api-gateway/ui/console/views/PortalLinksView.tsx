import { useState } from 'preact/hooks';
import { act } from '../actions';
import { useConsole } from '../context';
import { api } from '../api';
import { CopyButton } from '../CopyButton';
import { ListView } from '../ListView';
import { Screen } from '../Screen';

function CreateLinkForm({ pid }: { pid: string }) {
  const ctx = useConsole();
  const [name, setName] = useState('');
  const [owner, setOwner] = useState('');
  const [manage, setManage] = useState(false);
  return (
    <form
      class="filters"
      id="portal-link-form"
      aria-label="New portal link"
      onSubmit={(e) => {
        e.preventDefault();
        void act(
          ctx,
          () =>
            ctx.call(api.createPortalLink, {
              params: { projectID: pid },
              body: { name, owner_id: owner, can_manage_endpoint: manage },
            }),
          'Portal link created',
        );
      }}
    >
      <label>
        Name
        <input name="name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Owner id
        <input name="owner_id" required value={owner} onInput={(e) => setOwner(e.currentTarget.value)} />
      </label>
      <label>
        Can manage endpoints
        <input
          type="checkbox"
          name="can_manage_endpoint"
          checked={manage}
          onChange={(e) => setManage(e.currentTarget.checked)}
        />
      </label>
      <button type="submit">Create link</button>
    </form>
  );
}

export function PortalLinksView({ pid }: { pid: string }) {
  return (
    <Screen title="Portal links">
      <CreateLinkForm pid={pid} />
      <ListView
        op={api.listPortalLinks}
        params={{ projectID: pid }}
        id="portal-links"
        empty="No portal links yet."
        filters={[{ key: 'owner_id', label: 'Owner id' }]}
        columns={[
          { label: 'Name', cell: (l) => l.name },
          { label: 'Owner', cell: (l) => l.owner_id || (l.endpoints ?? []).join(', ') },
          { label: 'Manage', cell: (l) => (l.can_manage_endpoint ? 'yes' : 'no') },
          {
            label: 'URL',
            cell: (l) =>
              l.url ? (
                <>
                  <a href={l.url} target="_blank" rel="noopener noreferrer">
                    open
                  </a>{' '}
                  <CopyButton text={l.url} what="Portal URL" />
                </>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </Screen>
  );
}
