import { when } from '../../components/format';
import { pageProject } from '../context';
import { Link } from '../Link';
import { ListView } from '../ListView';
import { Screen } from '../Screen';
import { api } from '../api';

/** Every project (the admin key only). */
export function ProjectsView() {
  return (
    <Screen title="Projects">
      <ListView
        op={api.listProjects}
        params={{}}
        id="projects"
        empty="No projects yet. Create one with POST /api/v1/projects."
        columns={[
          { label: 'Name', cell: (p) => <Link href={pageProject(p.uid)}>{p.name}</Link> },
          { label: 'Type', cell: (p) => p.type },
          { label: 'Id', cell: (p) => <span class="mono">{p.uid}</span> },
          { label: 'Created', cell: (p) => when(p.created_at) },
        ]}
      />
    </Screen>
  );
}
