import { ORG_MEMBER_ROLE } from '../../../shared/schemas/organizations';
import { trpc } from '../../lib/trpc';

/** The project's roles as a select's options ("Admin · org:admin"), with the member role as the default. */
export function useRoleOptions(projectId: string) {
  const roles = trpc.organizations.roles.useQuery({ id: projectId });
  const options = (roles.data?.roles ?? []).map((role) => ({ value: role.key, label: `${role.name} · ${role.key}` }));
  // Until the roles load, the built-in member role still shows.
  if (options.length === 0) options.push({ value: ORG_MEMBER_ROLE, label: ORG_MEMBER_ROLE });
  const nameOf = (key: string) => roles.data?.roles.find((role) => role.key === key)?.name ?? key;
  return { options, nameOf };
}
