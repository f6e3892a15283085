import { Badge } from '../../components/Badge';
import { CopyButton } from '../CopyButton';
import { ListView } from '../ListView';
import { Screen } from '../Screen';
import { api } from '../api';

export function SourcesView({ pid }: { pid: string }) {
  return (
    <Screen title="Sources">
      <ListView
        op={api.listSources}
        params={{ projectID: pid }}
        id="sources"
        empty="No sources yet."
        filters={[
          { key: 'name', label: 'Name' },
          { key: 'type', label: 'Type', options: ['http', 'rest_api', 'pub_sub', 'db_change_stream'] },
        ]}
        columns={[
          { label: 'Name', cell: (s) => s.name },
          { label: 'Type', cell: (s) => s.type + (s.provider ? ` · ${s.provider}` : '') },
          { label: 'Verifier', cell: (s) => s.verifier?.type || 'none' },
          {
            label: 'Ingest URL',
            cell: (s) =>
              s.url ? (
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
