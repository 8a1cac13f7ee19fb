import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_DIR } from '../../src/main/sync/paths';
import { PLACEHOLDER_SUFFIX, realNameOf } from '../../src/main/sync/placeholder';
import { NEXT_ITEM_ID, type UserRow } from '../../src/service/db';
import { adjustSizes } from '../../src/service/items';
import { nameKey } from '../../src/service/names';
import { createFolder } from '../../src/service/routes/folders';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { runCli, syncArgs, tempDir } from '../cli/run-cli';

// Files on demand as in life (issue 41): a workspace of 10,000 files mirrored online only by the
// real CLI (`sync --once --on-demand online`), then walked the way an indexer does — every file
// read by `find -type f -exec cat {} +`, every image handed to a real thumbnailer
// (gdk-pixbuf-thumbnailer, the one /usr/share/thumbnailers names for PNG and JPEG, which GNOME's
// file managers run) — and synced again: the sandbox counts no download and no archive, by
// route, from the first sync to the last.

const execFileAsync = promisify(execFile);
const THUMBNAILER = '/usr/bin/gdk-pixbuf-thumbnailer';

const FOLDERS = 100;
const FILES = 10_000;
/** One file in IMAGE_EVERY is an image (.png or .jpg), a real one on the service. */
const IMAGE_EVERY = 40;
const IMAGES = FILES / IMAGE_EVERY;
/** Distinct contents of each kind. */
const POOL = 32;

/** Routes that send a file's content: single downloads and folder archives. */
const CONTENT_ROUTE = /download|archive|zip/i;

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
let token: string;

/** A 16×16 RGB PNG: what the thumbnailer makes a thumbnail of when it gets the real file. */
function tinyPng(shade: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const w = 16;
  const rows = Buffer.alloc(w * (1 + 3 * w));
  for (let y = 0; y < w; y++) {
    for (let x = 0; x < w; x++) rows.set([x * 16, y * 16, shade], y * (1 + 3 * w) + 1 + 3 * x);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(w, 4);
  ihdr[8] = 8; // bits per channel
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const isImageName = (name: string) => /\.(png|jpg)$/.test(name);

/**
 * FOLDERS folders of FILES / FOLDERS files each (two listing pages), written the fast way the
 * scale benchmark writes its workspaces (bench/scale-generate.ts): the folders by the sandbox's
 * own operation, the files as the upload route's rows (item, version, folder sizes) straight
 * into its database in one transaction, their contents a small pool of blobs written once. An
 * upload through the route costs a blob file each: 10,000 took 20 s on a loaded machine.
 * No events: the first sync walks the tree, as a first sync does anyway.
 */
async function makeWorkspace(): Promise<void> {
  const { db, blobs } = sb.sandbox;
  const owner = db.prepare('SELECT * FROM users WHERE id = ?').get(sb.users[0]!.id) as UserRow;
  const root = (
    db.prepare('SELECT root_folder_id FROM workspaces WHERE id = ?').get(sb.workspaceId) as {
      root_folder_id: number;
    }
  ).root_folder_id;
  const notes = await Promise.all(
    Array.from({ length: POOL }, (_, i) => blobs.writeBuffer(Buffer.from(`note ${i}\n`))),
  );
  const pngs = await Promise.all(
    Array.from({ length: POOL }, (_, i) => blobs.writeBuffer(tinyPng(i * 8))),
  );
  const insertFile = db.prepare(
    `INSERT INTO items (id, kind, workspace_id, parent_id, filename, name_key, user_id, size,
       blob, width, height, created_at, updated_at)
     VALUES (${NEXT_ITEM_ID}, 'file', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertVersion = db.prepare(
    `INSERT INTO file_versions (file_id, blob, size, user_id, created_at) VALUES (?, ?, ?, ?, ?)`,
  );
  const now = sb.sandbox.clock.now();
  db.transaction(() => {
    for (let f = 0; f < FOLDERS; f++) {
      const folder = createFolder(sb.sandbox, owner, root, `Folder ${String(f).padStart(3, '0')}`);
      let bytes = 0;
      for (let i = f; i < FILES; i += FOLDERS) {
        const image = i % IMAGE_EVERY === 0;
        const name = image
          ? `Photo ${i}.${(i / IMAGE_EVERY) % 2 ? 'jpg' : 'png'}`
          : `Note ${i}.txt`;
        const blob = (image ? pngs : notes)[i % POOL]!;
        const side = image ? 16 : null;
        const id = insertFile.run(
          sb.workspaceId,
          folder.id,
          name,
          nameKey(name),
          owner.id,
          blob.size,
          blob.hash,
          side,
          side,
          now,
          now,
        ).lastInsertRowid;
        insertVersion.run(id, blob.hash, blob.size, owner.id, now);
        bytes += blob.size;
      }
      adjustSizes(sb.sandbox, folder.id, bytes);
    }
  })();
}

/**
 * Hands each of `files` to the thumbnailer, one after the other, the thumbnails into `out`. One
 * shell runs them (a child each from Node costs ten times the thumbnailer). It exits 1 on a
 * file that is no image, a placeholder's text: that is its answer, not a failure of the loop.
 */
function thumbnailEach(files: string[], out: string): Promise<void> {
  const loop =
    'n=0; while IFS= read -r f; do n=$((n+1)); "$0" -s 128 "$f" "$1/$n.png" 2>/dev/null || :; done';
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', loop, THUMBNAILER, out], {
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`the thumbnail loop exited with ${code}`)),
    );
    child.stdin.end(files.join('\n') + '\n');
  });
}

beforeAll(async () => {
  if (!existsSync(THUMBNAILER)) {
    throw new Error(
      `${THUMBNAILER} is missing: this test hands images to a real thumbnailer. ` +
        'Debian/Ubuntu: sudo apt-get install libgdk-pixbuf2.0-bin',
    );
  }
  sb = await startSandbox({ seed: 'empty' });
  tmp = await tempDir('indexer');
  token = sb.users[0]!.token;
  await makeWorkspace();
});
afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

/** The sandbox's requests that sent content, by route (none is `{}`). */
const contentRequests = () =>
  Object.fromEntries(Object.entries(sb.stats()).filter(([route]) => CONTENT_ROUTE.test(route)));

describe('files on demand, walked by an indexer and a thumbnailer', () => {
  it('downloads nothing for 10,000 online-only files read by find and cat and thumbnailed', async () => {
    const dir = path.join(tmp.dir, 'workspace');
    const state = path.join(tmp.dir, 'state');
    const sync = (...extra: string[]) =>
      runCli(syncArgs(sb, dir, state, '--once', ...extra, '--token-file', '-'), {
        stdin: `${token}\n`,
      });
    sb.resetStats();

    const first = await sync('--on-demand', 'online');
    expect(first.code, first.stderr).toBe(0);
    const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter(
      (e) => e.isFile() && !e.parentPath.includes(CACHE_DIR),
    );
    expect(files).toHaveLength(FILES);

    // The indexer: every file opened and read to its end, the output discarded.
    await execFileAsync('sh', ['-c', 'find . -type f -exec cat {} + > /dev/null'], { cwd: dir });

    // The thumbnailer, handed each image as a file manager would: the file where an image is
    // named (here its placeholder, `Photo 20.jpg.wsync`).
    const images = files
      .map((e) => path.join(e.parentPath, e.name))
      .filter((p) => isImageName(realNameOf(path.basename(p)) ?? path.basename(p)));
    expect(images).toHaveLength(IMAGES);
    const thumbs = path.join(tmp.dir, 'thumbnails');
    mkdirSync(thumbs);
    await thumbnailEach(images, thumbs);
    const made = readdirSync(thumbs).length;

    // The engine's next pass after the walk: nothing the indexer did asks for content either.
    const again = await sync();
    expect(again.code, again.stderr).toBe(0);

    expect(contentRequests()).toEqual({});
    // A placeholder holds no image: the thumbnailer got nothing it could draw.
    expect(made).toBe(0);
    expect(files.every((e) => e.name.endsWith(PLACEHOLDER_SUFFIX))).toBe(true);
  });
});
