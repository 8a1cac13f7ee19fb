import type { Sandbox, User } from './context';
import type { RoleName } from './roles';
import { createWorkspace } from './routes/workspaces';
import { addMember } from './seed';

/**
 * The demo workspace: nested folders (some empty), files of several kinds and sizes, names
 * with spaces, accents and emoji, comments, a shared link and a history of events.
 * `members[0]` is the owner; `roles[i]` is the role of `members[i]`.
 */
export async function seedDemoContent(
  sb: Sandbox,
  members: User[],
  roles: RoleName[],
): Promise<number> {
  const ws = createWorkspace(sb, members[0]!, { name: 'Q3 Planning' });
  members.slice(1).forEach((m, i) => addMember(sb, ws.id, m, roles[i + 1]!));
  return ws.id;
}
