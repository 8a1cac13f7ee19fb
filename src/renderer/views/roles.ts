import type { Role } from '../../shared/app-api';
import { Role as RoleSchema } from '../../shared/app-api';
import { strings } from '../strings';

/** Most powerful first, as people read a list of roles (the contract's enum is least first). */
export const ROLES_DOWN: readonly Role[] = [...RoleSchema.options].reverse();

/** A role's name for people; a role this window does not know is shown as the service names it. */
export function roleName(role: string): string {
  return Object.hasOwn(strings.members.roleNames, role)
    ? strings.members.roleNames[role as Role]
    : role;
}
