import { createUser } from './accounts';
import { issueTokens } from './auth';
import type { Sandbox, User } from './context';
import type { RoleName } from './roles';
import { createWorkspace } from './routes/workspaces';
import { seedDemoContent } from './seed-demo';

export type SeedKind = 'demo' | 'empty' | 'none';

export interface SeededUser {
  id: number;
  name: string;
  email: string;
  password: string;
  role: RoleName;
  token: string;
  time_zone: string;
}

// One user per role, in different time zones, none of them UTC. Local sandbox only: these
// passwords are printed on purpose so that a person can sign in to the demo.
export const SEED_USERS: {
  name: string;
  email: string;
  password: string;
  role: RoleName;
  time_zone: string;
}[] = [
  {
    name: 'Ann Lee',
    email: 'ann@example.com',
    password: 'ann-sandbox-pass',
    role: 'Administrator',
    time_zone: 'America/New_York',
  },
  {
    name: 'Moritz Schäfer',
    email: 'moritz@example.com',
    password: 'moritz-sandbox-pass',
    role: 'Moderator',
    time_zone: 'Europe/Berlin',
  },
  {
    name: 'Kenji Sato',
    email: 'kenji@example.com',
    password: 'kenji-sandbox-pass',
    role: 'Collaborator',
    time_zone: 'Asia/Tokyo',
  },
  {
    name: 'Chloé Martin',
    email: 'chloe@example.com',
    password: 'chloe-sandbox-pass',
    role: 'Creator',
    time_zone: 'Australia/Sydney',
  },
  {
    name: 'Dana Cruz',
    email: 'dana@example.com',
    password: 'dana-sandbox-pass',
    role: 'Downloader',
    time_zone: 'America/Los_Angeles',
  },
  {
    name: 'Vikram Rao',
    email: 'vikram@example.com',
    password: 'vikram-sandbox-pass',
    role: 'Viewer',
    time_zone: 'Asia/Kolkata',
  },
];

/** Makes `user` a member of the workspace with `role` at once (the seed's shortcut for an invitation). */
export function addMember(sb: Sandbox, workspaceId: number, user: User, role: RoleName): void {
  sb.db
    .prepare(
      `INSERT INTO rolemaps (workspace_id, user_id, email, role_name, state, updated_at)
       VALUES (?, ?, ?, ?, 'accepted', ?)
       ON CONFLICT (workspace_id, email) DO UPDATE SET role_name = excluded.role_name, state = 'accepted'`,
    )
    .run(workspaceId, user.id, user.email, role, sb.clock.now());
}

export async function seedSandbox(
  sb: Sandbox,
  kind: SeedKind,
): Promise<{ workspaceId: number; users: SeededUser[] }> {
  if (kind === 'none') return { workspaceId: 0, users: [] };
  const existing = resumeSeed(sb);
  if (existing) return existing;
  // One after the other, so that ids follow the table (the owner is user 1).
  const created: Awaited<ReturnType<typeof createUser>>[] = [];
  for (const u of SEED_USERS) created.push(await createUser(sb, u));
  const users: SeededUser[] = created.map(({ user, token }, i) => ({
    id: user.id,
    name: user.name,
    email: user.email,
    password: SEED_USERS[i]!.password,
    role: SEED_USERS[i]!.role,
    token,
    time_zone: user.time_zone,
  }));
  const owner = created[0]!.user;
  const members = created.map((c) => c.user);
  if (kind === 'empty') {
    const ws = createWorkspace(sb, owner, { name: 'Empty Workspace' });
    members.slice(1).forEach((m, i) => addMember(sb, ws.id, m, SEED_USERS[i + 1]!.role));
    return { workspaceId: ws.id, users };
  }
  const workspaceId = await seedDemoContent(
    sb,
    members,
    SEED_USERS.map((u) => u.role),
  );
  return { workspaceId, users };
}

/**
 * A sandbox restarted on its own `--data` keeps what it had: the seed users get fresh access
 * tokens (only hashes are stored, so the old ones cannot be printed) and nothing is seeded again.
 */
function resumeSeed(sb: Sandbox): { workspaceId: number; users: SeededUser[] } | null {
  const owner = sb.db.prepare(`SELECT * FROM users WHERE email = ?`).get(SEED_USERS[0]!.email) as
    User | undefined;
  if (!owner) return null;
  const users: SeededUser[] = [];
  for (const seed of SEED_USERS) {
    const user = sb.db.prepare(`SELECT * FROM users WHERE email = ?`).get(seed.email) as
      User | undefined;
    if (!user) continue;
    users.push({
      id: user.id,
      name: user.name,
      email: user.email,
      password: seed.password,
      role: seed.role,
      token: issueTokens(sb, user.id, 'sandbox').access_token,
      time_zone: user.time_zone,
    });
  }
  const ws = sb.db
    .prepare(`SELECT id FROM workspaces WHERE owner_id = ? ORDER BY id LIMIT 1`)
    .get(owner.id) as { id: number } | undefined;
  return { workspaceId: ws?.id ?? 0, users };
}
