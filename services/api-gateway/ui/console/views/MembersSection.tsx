import { ROLES, type ResponseOf, type Role } from '@hookrail/api-contract';
import { useState } from 'preact/hooks';
import { DataTable } from '../../components/DataTable';
import { Loaded } from '../../components/Loaded';
import { useLoad } from '../../components/useLoad';
import { when } from '../../components/format';
import { act } from '../actions';
import { api } from '../api';
import { useConsole, type ConsoleContext } from '../context';

type Member = ResponseOf<typeof api.listProjectMembers>[number];

/** The calls of one scope: a project's members (`pid`) or the instance's. */
function scopeCalls(ctx: ConsoleContext, pid: string | undefined) {
  if (pid === undefined)
    return {
      list: () => ctx.call(api.listInstanceMembers),
      set: (userID: string, role: Role) =>
        ctx.call(api.setInstanceMemberRole, { params: { userID }, body: { role } }),
      revoke: (userID: string) => ctx.call(api.revokeInstanceMemberRole, { params: { userID } }),
    };
  return {
    list: () => ctx.call(api.listProjectMembers, { params: { projectID: pid } }),
    set: (userID: string, role: Role) =>
      ctx.call(api.setProjectMemberRole, { params: { projectID: pid, userID }, body: { role } }),
    revoke: (userID: string) => ctx.call(api.revokeProjectMemberRole, { params: { projectID: pid, userID } }),
  };
}

/** One person's assigned role: a choice of role (or none) and the button that applies it. */
function RoleChoice({ member, apply }: { member: Member; apply: (role: Role | '') => void }) {
  const [role, setRole] = useState<Role | ''>(member.assigned_role ?? '');
  const who = member.name || member.email;
  return (
    <span class="row-actions">
      <select
        aria-label={`Assigned role for ${who}`}
        value={role}
        onChange={(e) => setRole(e.currentTarget.value as Role | '')}
      >
        <option value="">none</option>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <button type="button" disabled={role === (member.assigned_role ?? '')} onClick={() => apply(role)}>
        Apply role for {who}
      </button>
    </span>
  );
}

/**
 * People and their roles (an owner's): everyone who signed in through single sign-on, with the role
 * their groups give, the one assigned here, and the one that counts (the stronger). Changing the
 * assigned role is recorded in the audit log as member.role_changed.
 */
export function MembersSection({ pid }: { pid?: string }) {
  const ctx = useConsole();
  const calls = scopeCalls(ctx, pid);
  const load = useLoad(calls.list, [pid, ctx.tick]);
  const apply = (m: Member, role: Role | '') =>
    act(
      ctx,
      () => (role === '' ? calls.revoke(m.user_id) : calls.set(m.user_id, role)),
      role === '' ? `Role of ${m.email} revoked` : `${m.email} is now ${role}`,
    );
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading">{pid === undefined ? 'People and instance roles' : 'People and roles'}</h2>
      <p class="muted">
        Everyone who signed in through single sign-on. A person holds the stronger of the role their groups
        give and the one assigned here.
      </p>
      <Loaded load={load}>
        {(members) => (
          <DataTable
            id="members"
            rows={members}
            rowKey={(m) => m.user_id}
            rowProps={(m) => ({ 'data-id': m.user_id })}
            empty="Nobody has signed in through single sign-on yet."
            columns={[
              { label: 'Person', cell: (m) => `${m.name} <${m.email}>` },
              { label: 'From groups', cell: (m) => m.group_role ?? '—' },
              { label: 'Role', cell: (m) => m.role ?? 'no access' },
              { label: 'Last sign-in', cell: (m) => (m.last_sign_in_at ? when(m.last_sign_in_at) : '—') },
              {
                label: 'Assigned role',
                cell: (m) => <RoleChoice member={m} apply={(r) => void apply(m, r)} />,
              },
            ]}
          />
        )}
      </Loaded>
    </section>
  );
}
