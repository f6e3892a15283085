import { Allowed } from '../../components/grants';
import { PROVIDERS, SOURCE_TYPES } from '@hookrail/api-contract';
import { Badge } from '../../components/Badge';
import { pageProject } from '../context';
import { Link } from '../Link';
import { CopyButton } from '../CopyButton';
import { ListView } from '../ListView';
import { Screen } from '../Screen';
import { api } from '../api';

export function SourcesView({ pid }: { pid: string }) {
  const base = pageProject(pid);
  return (
    <Screen title="Sources">
      <ListView
        op={api.listSources}
        params={{ projectID: pid }}
        id="sources"
        empty="No sources yet."
        filters={[
          { key: 'name', label: 'Name' },
          { key: 'type', label: 'Type', options: [...SOURCE_TYPES] },
          { key: 'provider', label: 'Provider', options: [...PROVIDERS] },
        ]}
        toolbar={() => (
          <div class="toolbar">
            <Allowed op={api.createSource}>
              <Link class="button primary" href={`${base}/sources/new`}>
                New source
              </Link>
            </Allowed>
          </div>
        )}
        columns={[
          { label: 'Name', cell: (s) => <Link href={`${base}/sources/${s.uid}`}>{s.name}</Link> },
          { label: 'Type', cell: (s) => s.type + (s.provider ? ` · ${s.provider}` : '') },
          { label: 'Verifier', cell: (s) => s.verifier?.type || 'none' },
          {
            label: 'Ingest URL',
            // A change stream takes no requests: its URL would only mislead.
            cell: (s) =>
              s.url && s.type !== 'db_change_stream' ? (
                <>
                  <span class="mono">{s.url}</span> <CopyButton text={s.url} what="Ingest URL" />
                </>
              ) : (
                '—'
              ),
          },
          {
            label: 'Functions',
            cell: (s) =>
              [s.body_function ? 'body' : null, s.header_function ? 'headers' : null]
                .filter(Boolean)
                .join(', ') || '—',
          },
          { label: 'State', cell: (s) => <Badge status={s.is_disabled ? 'paused' : 'active'} /> },
        ]}
      />
    </Screen>
  );
}
