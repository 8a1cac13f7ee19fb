import Database from 'better-sqlite3';

export type Db = Database.Database;

/**
 * Migrations by `user_version`: entry i brings the schema from version i to i + 1. Never edit
 * a shipped entry; append a new one.
 */
export const MIGRATIONS: readonly string[] = [
  `
  -- Settings of this sync pair: workspace, root folder id, the local root's identity, cursor.
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  -- One row per synced item: how it looks on the service and on the disk the last time both
  -- sides agreed (the "synced tree").
  CREATE TABLE items (
    remote_id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('folder', 'file')),
    remote_parent_id INTEGER NOT NULL,
    remote_name TEXT NOT NULL,
    -- Relative to the sync root, '/'-separated, in local (mapped) names.
    local_path TEXT NOT NULL,
    local_name TEXT NOT NULL,
    -- local_path folded the way the volume compares names (case, Unicode normalization).
    path_key TEXT NOT NULL,
    dev INTEGER,
    ino INTEGER,
    size INTEGER,
    mtime_ms REAL,
    hash TEXT,
    remote_size INTEGER,
    remote_updated_at TEXT,
    -- 'synced', or 'not-permitted' (known remotely, not on disk: the role forbids download).
    state TEXT NOT NULL DEFAULT 'synced'
  );
  CREATE UNIQUE INDEX items_path ON items (path_key);
  CREATE INDEX items_parent ON items (remote_parent_id);

  -- Remote mutations: recorded as intents before they are sent, completed after.
  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    op TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'done', 'failed')),
    created_at INTEGER NOT NULL,
    sent_at INTEGER,
    done_at INTEGER,
    result TEXT,
    attempts INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX outbox_open ON outbox (state) WHERE state IN ('pending', 'sent');

  -- Event ids already handled within the overlap window of the remote cursor.
  CREATE TABLE seen_events (id INTEGER PRIMARY KEY, time_ms INTEGER NOT NULL);

  -- Items that could not be synced, with the reason; cleared when they sync.
  CREATE TABLE problems (
    key TEXT PRIMARY KEY,
    path TEXT NOT NULL,
    remote_id INTEGER,
    reason TEXT NOT NULL,
    message TEXT NOT NULL,
    at INTEGER NOT NULL
  );

  -- Downloads in progress, so that an interrupted one resumes with Range.
  CREATE TABLE downloads (
    remote_id INTEGER PRIMARY KEY,
    temp_name TEXT NOT NULL,
    remote_updated_at TEXT,
    remote_size INTEGER NOT NULL
  );
  `,
  // Part 2: local moves are found by identity (device + inode).
  `CREATE INDEX items_inode ON items (ino, dev);`,
  // Part 3: an item kept here as local work after the service deleted it goes up again under
  // its service name, when its local name was only a mapping of it (\`Notes (2)\` beside a file
  // \`Notes\`). By identity and local name: renamed since, it goes up under its new name.
  `CREATE TABLE kept_names (
    dev INTEGER NOT NULL,
    ino INTEGER NOT NULL,
    local_name TEXT NOT NULL,
    remote_name TEXT NOT NULL,
    PRIMARY KEY (dev, ino)
  );`,
  // Part 4: the feed counts the events it handled in its window (journal.feed.seenSince), and
  // knows this client's own changes when it reads them back (journal.feed.takeOwnChange).
  `CREATE INDEX seen_events_time ON seen_events (time_ms);
  CREATE TABLE own_changes (item_id INTEGER NOT NULL, time_ms INTEGER NOT NULL);
  CREATE INDEX own_changes_item ON own_changes (item_id, time_ms);`,
  // Part 5: the journal at a million items (issue 25). Each pass asks how many items there are
  // (the delete guards, the cost of a walk against reading the feed): count(*) reads a whole
  // index, and counting folders or items here the whole table, so the counts are kept by
  // triggers in one row. An upsert that becomes an update fires the update trigger only, and only
  // when the kind or the presence here changes. The feed prunes own changes by time on every
  // poll: that needs an index on time (test/journal/query-plans.test.ts checks every statement).
  // Problems by time: the status lists them oldest first (no sort of them all; the first 200 of
  // a million not-permitted files are then read off the index, once the status asks for 200).
  `CREATE TABLE item_counts (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    items INTEGER NOT NULL,
    folders INTEGER NOT NULL,
    here INTEGER NOT NULL
  );
  INSERT INTO item_counts (id, items, folders, here)
    SELECT 1, count(*), count(CASE WHEN kind = 'folder' THEN 1 END), count(ino) FROM items;
  CREATE TRIGGER item_counts_insert AFTER INSERT ON items BEGIN
    UPDATE item_counts SET items = items + 1, folders = folders + (NEW.kind = 'folder'),
      here = here + (NEW.ino IS NOT NULL) WHERE id = 1;
  END;
  CREATE TRIGGER item_counts_delete AFTER DELETE ON items BEGIN
    UPDATE item_counts SET items = items - 1, folders = folders - (OLD.kind = 'folder'),
      here = here - (OLD.ino IS NOT NULL) WHERE id = 1;
  END;
  CREATE TRIGGER item_counts_update AFTER UPDATE OF kind, ino ON items
    WHEN OLD.kind IS NOT NEW.kind OR (OLD.ino IS NULL) IS NOT (NEW.ino IS NULL) BEGIN
    UPDATE item_counts SET folders = folders - (OLD.kind = 'folder') + (NEW.kind = 'folder'),
      here = here - (OLD.ino IS NOT NULL) + (NEW.ino IS NOT NULL) WHERE id = 1;
  END;
  CREATE INDEX own_changes_time ON own_changes (time_ms);
  CREATE INDEX problems_at ON problems (at);`,
  // Part 6: a full walk streams what it lists here instead of holding the service's tree in
  // memory (emptied at the start and the end of each walk). `walk_folders` has every folder met
  // (a second listing of one is a loop in the tree: its key refuses it) and, once listed, its
  // place in the order of listing (parents before children), by which the tree is planned in
  // chunks; `walk_items` has every item listed, under the folder that listed it.
  `CREATE TABLE walk_items (
    id INTEGER PRIMARY KEY,
    parent_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    size INTEGER NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX walk_items_parent ON walk_items (parent_id);
  CREATE TABLE walk_folders (id INTEGER PRIMARY KEY, seq INTEGER);
  CREATE INDEX walk_folders_seq ON walk_folders (seq) WHERE seq IS NOT NULL;`,
  // Part 7: conflicts a person can act on (`problems.ts`): the original's path, the conflict
  // copy's, and the copy's identity when it was made (an action on a copy changed since is
  // refused). Problems the person dismissed, by key and the message dismissed: the same problem
  // with a new message shows again; a problem cleared takes its dismissal along.
  `CREATE TABLE conflicts (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    copy TEXT NOT NULL,
    message TEXT NOT NULL,
    at INTEGER NOT NULL,
    copy_facts TEXT
  );
  CREATE TABLE dismissed_problems (key TEXT PRIMARY KEY, message TEXT NOT NULL);
  CREATE TRIGGER problems_dismissal_gone AFTER DELETE ON problems BEGIN
    DELETE FROM dismissed_problems WHERE key = OLD.key;
  END;`,
  // Part 8: selective sync. The folders of the workspace not synced on this computer, by id (a
  // rename or move on the service keeps one out), with its place there as last seen (a local
  // folder made at that place is kept apart, never merged into it) and, once left out here, the
  // local path its copy had (kept there when it held changes not sent). Nothing below one is in
  // \`items\`: it is not here, so its absence here is never read as a delete.
  `CREATE TABLE excluded (
    id INTEGER PRIMARY KEY,
    parent_id INTEGER,
    name TEXT,
    local_path TEXT
  );`,
  // Part 9: a problem's and a kept conflict's sentence as data (`Words`, JSON: a catalog key and
  // its parameters), so that after a restart each reader still says it in its language. Null for
  // rows written before (and for an error's own text): those are said in English, as before.
  `ALTER TABLE problems ADD COLUMN words TEXT;
  ALTER TABLE conflicts ADD COLUMN words TEXT;`,
  // Part 10: files on demand (docs/SYNC.md). An item kept online only is an ordinary record with
  // state 'online' (its placeholder's facts in size and mtime_ms, no identity): the index lets a
  // pass ask at once whether any is. Pins are local paths whose files always arrive in full.
  `CREATE INDEX items_online ON items (state) WHERE state = 'online';
  CREATE TABLE pins (path TEXT PRIMARY KEY);`,
  // Part 11: when a file last came down (ms since the epoch), by id, kept while the pair frees
  // files not opened for N days: a file's "last opened" where the mount records no access times.
  `CREATE TABLE fetched (remote_id INTEGER PRIMARY KEY, at INTEGER NOT NULL);`,
];

/** Opens (creating if needed) a journal database in WAL mode and brings it to the latest schema. */
export function openDatabase(file: string): Db {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    // WAL + NORMAL: a commit survives a process crash; only a power loss may lose the last ones,
    // and the engine re-checks the disk against the journal on start anyway.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // A statement inside a transaction (the engine's batches) keeps the pages it changes in a
    // statement journal. SQLite holds it in memory up to 64 KiB, but once one statement spills
    // it to a file the file stays for the connection: every later upsert then cost ~10 writes
    // (a 100k mirror: 364,861 pwrite calls into /var/tmp/etilqs_*). In memory it never spills;
    // it holds what one statement changes, no more (so a subtree is moved or removed a chunk of
    // rows per statement: items.ts, eachTreeChunk).
    db.pragma('temp_store = MEMORY');
    migrate(db);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

export function migrate(db: Db): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > MIGRATIONS.length) {
    throw new Error(
      `The sync journal was written by a newer version of Workspace Sync (schema ${version}); update the app.`,
    );
  }
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
