import type { ResponseOf } from '@hookrail/api-contract';
import { useState } from 'preact/hooks';
import { SelectField, TextField } from '../../components/form/fields';
import { Form } from '../../components/form/Form';
import { text } from '../../components/form/values';
import { when } from '../../components/format';
import { api } from '../api';
import { pageProject, useConsole } from '../context';
import { IssuedKey } from '../IssuedKey';
import { Link } from '../Link';
import { ListView } from '../ListView';
import { Screen } from '../Screen';
import { Allowed } from '../../components/grants';
import { MembersSection } from './MembersSection';

type Created = ResponseOf<typeof api.createProject>;

/** A new project (the admin key): its first API key is shown once, with a link to the project. */
function NewProjectForm() {
  const ctx = useConsole();
  const [created, setCreated] = useState<Created | null>(null);
  return (
    <>
      {created && (
        <>
          <IssuedKey name={created.api_key.name} value={created.api_key.key} />
          <p>
            <Link href={pageProject(created.uid)}>Open project {created.name}</Link>
          </p>
        </>
      )}
      <Form
        id="project-new-form"
        label="New project"
        operation={api.createProject}
        initial={{ name: '', type: 'outgoing' }}
        submitLabel="Create project"
        onSubmit={async (v) => {
          const p = await ctx.call(api.createProject, {
            body: { name: text(v, 'name')!, type: v.type as 'outgoing' | 'incoming' },
          });
          setCreated(p);
          ctx.notify(`Project ${p.name} created`);
          ctx.refresh();
        }}
      >
        {() => (
          <div class="field-row">
            <TextField name="name" label="Project name" />
            <SelectField
              name="type"
              label="Type"
              options={[
                { value: 'outgoing', label: 'Outgoing (you send events)' },
                { value: 'incoming', label: 'Incoming (sources receive them)' },
              ]}
            />
          </div>
        )}
      </Form>
    </>
  );
}

/**
 * The projects the caller may see (every one for the admin key or an instance role, a person's own
 * otherwise), a new one, and the people's instance roles (an owner's).
 */
export function ProjectsView() {
  return (
    <Screen title="Projects">
      <Allowed op={api.createProject}>
        <NewProjectForm />
      </Allowed>
      <ListView
        op={api.listProjects}
        params={{}}
        id="projects"
        empty="No projects yet: create the first one above."
        filters={[{ key: 'q', label: 'Search projects', type: 'search', placeholder: 'name or id' }]}
        columns={[
          { label: 'Name', cell: (p) => <Link href={pageProject(p.uid)}>{p.name}</Link> },
          { label: 'Type', cell: (p) => p.type },
          { label: 'Id', cell: (p) => <span class="mono">{p.uid}</span> },
          { label: 'Created', cell: (p) => when(p.created_at) },
        ]}
      />
      <Allowed op={api.listInstanceMembers}>
        <MembersSection />
      </Allowed>
    </Screen>
  );
}
