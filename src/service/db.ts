import Database from 'better-sqlite3';

export type Db = Database.Database;

// Migrations by `user_version`: entry i brings the schema from version i to i + 1.
const MIGRATIONS: string[] = [
  `
  CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT NOT NULL,
    time_zone TEXT NOT NULL,
    link_base_url TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE tokens (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
    token_hash BLOB NOT NULL UNIQUE,
    device TEXT,
    expires_at INTEGER,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE auth_codes (
    code_hash BLOB PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    client_id TEXT NOT NULL,
    redirect_uri TEXT NOT NULL,
    code_challenge TEXT,
    device TEXT,
    expires_at INTEGER NOT NULL,
    used INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE workspaces (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    background_color TEXT NOT NULL,
    data_room INTEGER NOT NULL DEFAULT 0,
    automatic_indexing INTEGER NOT NULL DEFAULT 0,
    default_view TEXT NOT NULL DEFAULT 'rows',
    default_sort TEXT NOT NULL DEFAULT 'alphabetical',
    root_folder_id INTEGER,
    owner_id INTEGER NOT NULL REFERENCES users(id),
    audit_trail INTEGER NOT NULL DEFAULT 1,
    require_agreement INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE rolemaps (
    id INTEGER PRIMARY KEY,
    workspace_id INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
    email TEXT NOT NULL COLLATE NOCASE,
    role_name TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('accepted', 'pending')),
    updated_at INTEGER NOT NULL,
    UNIQUE (workspace_id, email)
  );
  CREATE INDEX rolemaps_user ON rolemaps(user_id, workspace_id);
  CREATE TABLE items (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('folder', 'file')),
    workspace_id INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    parent_id INTEGER REFERENCES items(id) ON DELETE CASCADE,
    filename TEXT NOT NULL,
    name_key TEXT NOT NULL,
    user_id INTEGER,
    hidden INTEGER NOT NULL DEFAULT 0,
    size INTEGER NOT NULL DEFAULT 0,
    blob TEXT,
    width INTEGER,
    height INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX items_folder_name ON items(parent_id, name_key) WHERE kind = 'folder';
  CREATE UNIQUE INDEX items_file_name ON items(parent_id, filename) WHERE kind = 'file';
  CREATE INDEX items_parent ON items(parent_id, kind, name_key);
  CREATE TABLE file_versions (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
    blob TEXT NOT NULL,
    size INTEGER NOT NULL,
    user_id INTEGER,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE discussions (
    id INTEGER PRIMARY KEY,
    item_id INTEGER NOT NULL UNIQUE REFERENCES items(id) ON DELETE CASCADE
  );
  CREATE TABLE comments (
    id INTEGER PRIMARY KEY,
    discussion_id INTEGER NOT NULL REFERENCES discussions(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id),
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE links (
    item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
    token TEXT NOT NULL UNIQUE,
    token_accessible INTEGER NOT NULL DEFAULT 0,
    require_password INTEGER NOT NULL DEFAULT 0,
    password_hash TEXT,
    expires_at INTEGER,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    workspace_id INTEGER NOT NULL,
    user_id INTEGER,
    verb TEXT NOT NULL,
    item_kind TEXT,
    item_id INTEGER,
    detail TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX events_workspace_time ON events(workspace_id, created_at);
  CREATE INDEX events_item_time ON events(item_id, created_at);
  `,
  // Folder contents in their default order (folders first, then by name) straight off an
  // index: no sort step on the hottest read of the service.
  `
  CREATE INDEX items_listing ON items(parent_id, kind DESC, name_key, filename, id);
  `,
  // A sync client polls for the verbs that change the tree since a time: downloads, views and
  // invitations in between must not be scanned (a mirror records thousands of downloads).
  `
  CREATE INDEX events_workspace_verb_time ON events(workspace_id, verb, created_at);
  `,
  // An id is never given twice, as on the real service (a sync client keys its journal by id):
  // without AUTOINCREMENT, SQLite hands the id of a deleted last item to the next one.
  `
  CREATE TABLE item_ids (last INTEGER NOT NULL);
  INSERT INTO item_ids SELECT coalesce(max(id), 0) FROM items;
  CREATE TRIGGER item_ids_last AFTER INSERT ON items
    BEGIN UPDATE item_ids SET last = max(last, NEW.id); END;
  `,
];

/** The id of the next item, in an INSERT: above every id ever given. */
export const NEXT_ITEM_ID = '(SELECT last + 1 FROM item_ids)';

export function openDb(file: string): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `The sandbox database is from a newer version (schema ${current}, this build knows ${MIGRATIONS.length})`,
    );
  }
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

// Row shapes, as stored.
export interface UserRow {
  id: number;
  name: string;
  email: string;
  password_hash: string;
  time_zone: string;
  link_base_url: string | null;
  created_at: number;
}

export interface WorkspaceRow {
  id: number;
  name: string;
  background_color: string;
  data_room: number;
  automatic_indexing: number;
  default_view: string;
  default_sort: string;
  root_folder_id: number;
  owner_id: number;
  audit_trail: number;
  require_agreement: number;
  created_at: number;
  updated_at: number;
}

export interface ItemRow {
  id: number;
  kind: 'folder' | 'file';
  workspace_id: number;
  parent_id: number | null;
  filename: string;
  name_key: string;
  user_id: number | null;
  hidden: number;
  size: number;
  blob: string | null;
  width: number | null;
  height: number | null;
  created_at: number;
  updated_at: number;
}

export interface RolemapRow {
  id: number;
  workspace_id: number;
  user_id: number | null;
  email: string;
  role_name: string;
  state: 'accepted' | 'pending';
  updated_at: number;
}

export interface CommentRow {
  id: number;
  discussion_id: number;
  user_id: number;
  body: string;
  created_at: number;
  updated_at: number;
}

export interface LinkRow {
  item_id: number;
  token: string;
  token_accessible: number;
  require_password: number;
  password_hash: string | null;
  expires_at: number | null;
  updated_at: number;
}

export interface EventRow {
  id: number;
  workspace_id: number;
  user_id: number | null;
  verb: string;
  item_kind: string | null;
  item_id: number | null;
  detail: string;
  created_at: number;
}

const statementCache = new WeakMap<Db, Map<string, Database.Statement>>();

/**
 * A prepared statement reused across requests (preparing costs more than running a small
 * query). Only for plain statements: never call `.raw()` or `.pluck()` on the result, since it
 * is shared.
 */
export function prepared(db: Db, sql: string): Database.Statement {
  let perDb = statementCache.get(db);
  if (!perDb) statementCache.set(db, (perDb = new Map()));
  let stmt = perDb.get(sql);
  if (!stmt) perDb.set(sql, (stmt = db.prepare(sql)));
  return stmt;
}
