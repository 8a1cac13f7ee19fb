import { Readable } from 'node:stream';
import type { UserRow } from '../../src/service/db';
import { uploadFile } from '../../src/service/routes/files';
import { createFolder } from '../../src/service/routes/folders';
import type { RunningSandbox } from '../../src/service/sandbox';

// A folder of many entries for the window's tests and benchmark, made through the sandbox's own
// operation functions (its HTTP routes' code, without HTTP), as bench/mirror-generate.ts does:
// subfolders, then files of a few bytes each.

export interface BigFolder {
  id: number;
  name: string;
  entries: number;
  /** The names in the listing's default order (folders first, then files, by name). */
  first: string;
  last: string;
}

const CONCURRENT_UPLOADS = 16;
const pad = (i: number) => String(i).padStart(5, '0');

/**
 * A new folder `name` in the seeded workspace's root, of `entries` items of which `files` are
 * files (an upload costs ~100 times a folder: a test keeps them few).
 */
export async function makeBigFolder(
  sb: RunningSandbox,
  name: string,
  { entries, files }: { entries: number; files: number },
): Promise<BigFolder> {
  const db = sb.sandbox.db;
  const owner = db.prepare('SELECT * FROM users WHERE id = ?').get(sb.users[0]!.id) as UserRow;
  const root = (
    db.prepare('SELECT root_folder_id FROM workspaces WHERE id = ?').get(sb.workspaceId) as {
      root_folder_id: number;
    }
  ).root_folder_id;
  const big = createFolder(sb.sandbox, owner, root, name);
  const folders = entries - files;
  // One transaction per batch (the operations' own become savepoints): nothing else writes to
  // the database meanwhile, and 20,000 commits would take most of the time.
  db.exec('BEGIN');
  try {
    for (let i = 0; i < folders; i++) {
      createFolder(sb.sandbox, owner, big.id, `Folder ${pad(i)}`);
    }
    // Uploads side by side: each waits on its blob's temporary file, not on the others.
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENT_UPLOADS }, async () => {
        while (next < files) {
          const i = next++;
          const body = Readable.from([Buffer.from(`entry ${i}\n`)]);
          await uploadFile(sb.sandbox, owner, big.id, `File ${pad(i)}.txt`, body);
        }
      }),
    );
    db.exec('COMMIT');
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
  return {
    id: big.id,
    name,
    entries,
    first: `Folder ${pad(0)}`,
    last: files > 0 ? `File ${pad(files - 1)}.txt` : `Folder ${pad(folders - 1)}`,
  };
}
