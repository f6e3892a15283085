import { CheckField, TextField } from '../../components/form/fields';
import { Form } from '../../components/form/Form';
import { flag, text } from '../../components/form/values';
import { useConsole } from '../context';
import { api } from '../api';
import { CopyButton } from '../CopyButton';
import { ListView } from '../ListView';
import { Screen } from '../Screen';

/** A new portal link for an owner's endpoints (its URL is in the list). */
function CreateLinkForm({ pid }: { pid: string }) {
  const ctx = useConsole();
  return (
    <Form
      id="portal-link-form"
      label="New portal link"
      operation={api.createPortalLink}
      initial={{ name: '', owner_id: '', can_manage_endpoint: false }}
      submitLabel="Create link"
      onSubmit={async (v) => {
        await ctx.call(api.createPortalLink, {
          params: { projectID: pid },
          body: {
            name: text(v, 'name')!,
            owner_id: text(v, 'owner_id'),
            can_manage_endpoint: flag(v, 'can_manage_endpoint'),
          },
        });
        ctx.notify('Portal link created');
        ctx.refresh();
      }}
    >
      {() => (
        <>
          <div class="field-row">
            <TextField name="name" label="Name" />
            <TextField
              name="owner_id"
              label="Owner id"
              required
              hint="The link opens this owner's endpoints"
            />
          </div>
          <CheckField name="can_manage_endpoint" label="Can manage endpoints" />
        </>
      )}
    </Form>
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
