import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import type { SeededUser } from '../../src/service/seed';
import type { RoleName } from '../../src/service/roles';
import type { WorkspaceRow } from '../../src/service/db';

// Helpers for the comments, links, shared-page and invitation tests: a sandbox with the seeded
// users and an empty workspace, items inserted straight into the database, and plain HTTP calls.

export async function startEmptySandbox(): Promise<RunningSandbox> {
  return startSandbox({ seed: 'empty' });
}

export function userWith(s: RunningSandbox, role: RoleName): SeededUser {
  const user = s.users.find((u) => u.role === role);
  if (!user) throw new Error(`no seeded ${role}`);
  return user;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON freely
  json: any;
}

export async function call(
  s: RunningSandbox,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: string | undefined;
  if (typeof body === 'string') {
    payload = body;
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(s.baseUrl + path, { method, headers, body: payload, redirect: 'manual' });
  const text = await res.text();
  let json: unknown = undefined;
  if ((res.headers.get('content-type') ?? '').includes('application/json') && text !== '') {
    json = JSON.parse(text);
  }
  return { status: res.status, headers: res.headers, text, json };
}

function workspace(s: RunningSandbox): WorkspaceRow {
  return s.sandbox.db
    .prepare(`SELECT * FROM workspaces WHERE id = ?`)
    .get(s.workspaceId) as WorkspaceRow;
}

export function rootFolderId(s: RunningSandbox): number {
  return workspace(s).root_folder_id;
}

/** Inserts a folder row (under the root folder unless `parentId` is given). */
export function makeFolder(
  s: RunningSandbox,
  name: string,
  parentId?: number,
  userId?: number,
): number {
  const now = s.sandbox.clock.now();
  const result = s.sandbox.db
    .prepare(
      `INSERT INTO items (kind, workspace_id, parent_id, filename, name_key, user_id, created_at, updated_at)
       VALUES ('folder', ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      s.workspaceId,
      parentId ?? rootFolderId(s),
      name,
      name.toLowerCase(),
      userId ?? s.users[0]!.id,
      now,
      now,
    );
  return Number(result.lastInsertRowid);
}

/** Inserts a file row with content in the blob store. */
export async function makeFile(
  s: RunningSandbox,
  name: string,
  content: string | Buffer,
  parentId?: number,
  userId?: number,
): Promise<number> {
  const data = typeof content === 'string' ? Buffer.from(content) : content;
  const { hash, size } = await s.sandbox.blobs.writeBuffer(data);
  const now = s.sandbox.clock.now();
  const result = s.sandbox.db
    .prepare(
      `INSERT INTO items (kind, workspace_id, parent_id, filename, name_key, user_id, blob, size, created_at, updated_at)
       VALUES ('file', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      s.workspaceId,
      parentId ?? rootFolderId(s),
      name,
      name.toLowerCase(),
      userId ?? s.users[0]!.id,
      hash,
      size,
      now,
      now,
    );
  return Number(result.lastInsertRowid);
}

export interface EventLine {
  verb: string;
  user_id: number | null;
  item_id: number | null;
  detail: string;
}

export function eventsOf(s: RunningSandbox, verb?: string): EventLine[] {
  const rows = s.sandbox.db
    .prepare(`SELECT verb, user_id, item_id, detail FROM events ORDER BY id`)
    .all() as EventLine[];
  return verb ? rows.filter((r) => r.verb === verb) : rows;
}
