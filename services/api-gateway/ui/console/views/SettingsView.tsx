import { seesAllProjects } from '../session';
import { Allowed } from '../../components/grants';
import { useState } from 'preact/hooks';
import { confirmAction } from '../../components/ConfirmDialog';
import { Loaded } from '../../components/Loaded';
import { useLoad } from '../../components/useLoad';
import { act } from '../actions';
import { api } from '../api';
import { useConsole } from '../context';
import type { Project } from '../ProjectPages';
import { Screen } from '../Screen';
import { ApiKeysSection } from './ApiKeysSection';
import { MembersSection } from './MembersSection';
import { ProjectSettingsForm } from './ProjectSettingsForm';

/** The project's settings form, its API keys and the roles assigned to people in it (an owner's). */
export function SettingsView({ project }: { project: Project }) {
  const ctx = useConsole();
  const [saved, setSaved] = useState(0);
  // read again after a save: the form starts from what the API stored
  const load = useLoad(
    () => ctx.call(api.getProject, { params: { projectID: project.uid } }),
    [project.uid, saved],
  );
  return (
    <Screen title="Settings and API keys">
      <Loaded load={load}>
        {(p) => <ProjectSettingsForm key={p.updated_at} project={p} onSaved={() => setSaved((n) => n + 1)} />}
      </Loaded>
      <Allowed op={api.listApiKeys}>
        <ApiKeysSection pid={project.uid} />
      </Allowed>
      <Allowed op={api.listProjectMembers}>
        <MembersSection pid={project.uid} />
      </Allowed>
      {seesAllProjects(ctx.session) && <DeleteProject project={project} />}
    </Screen>
  );
}

function DeleteProject({ project }: { project: Project }) {
  const ctx = useConsole();
  return (
    <section class="card" aria-label="Delete the project">
      <h2>Delete the project</h2>
      <p class="muted">Its keys stop working at once.</p>
      <Allowed op={api.deleteProject}>
        <button
          type="button"
          class="danger"
          onClick={async () => {
            if (
              !(await confirmAction(
                `Delete project ${project.name}? Its keys stop working at once.`,
                'Delete project',
              ))
            )
              return;
            if (
              await act(
                ctx,
                () => ctx.call(api.deleteProject, { params: { projectID: project.uid } }),
                'Project deleted',
              )
            )
              location.assign('/console');
          }}
        >
          Delete project
        </button>
      </Allowed>
    </section>
  );
}
