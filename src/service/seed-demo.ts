import { deflateSync } from 'node:zlib';
import { Readable } from 'node:stream';
import type { Sandbox, User } from './context';
import type { ItemRow } from './db';
import type { RoleName } from './roles';
import { addComment } from './routes/comments';
import { deleteItem, renameOrMoveItem } from './items';
import { uploadFile } from './routes/files';
import { createFolder } from './routes/folders';
import { invite } from './routes/invitations';
import { readOrCreateLink, updateLink } from './routes/links';
import { createWorkspace } from './routes/workspaces';

const DAY = 24 * 3600 * 1000;

/** A deterministic pseudo-random byte source, so that the demo is the same on every start. */
function pseudoRandomBytes(size: number, seed: number): Buffer {
  const out = Buffer.allocUnsafe(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A real PNG of a colour gradient (so that the sandbox can measure it for a thumbnail). */
function gradientPng(width: number, height: number, hue: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      raw[row + 1 + x * 3] = (x * 255) / width;
      raw[row + 2 + x * 3] = (y * 255) / height;
      raw[row + 3 + x * 3] = hue;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function csv(rows: number): Buffer {
  const lines = ['region,month,revenue_eur,units'];
  const regions = ['Nord', 'Süd', 'Île-de-France', 'Kantō', 'New South Wales'];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `${regions[i % regions.length]},2026-${String((i % 12) + 1).padStart(2, '0')},${(i * 7919) % 100000},${(i * 31) % 977}`,
    );
  }
  return Buffer.from(lines.join('\n') + '\n');
}

/**
 * The demo workspace: nested folders (some empty), files of several kinds and sizes, names
 * with spaces, accents and emoji, comments, shared links and a history of events spread over
 * the last two weeks. `members[i]` has `roles[i]`; `members[0]` is the owner.
 */
export async function seedDemoContent(
  sb: Sandbox,
  members: User[],
  roles: RoleName[],
): Promise<number> {
  const [ann, moritz, kenji, chloe] = members as [User, User, User, User, ...User[]];
  // Write the history in the past, then come back to the present.
  sb.clock.rewind(4 * DAY); // the steps below add up to about four days
  const step = (hours: number) => sb.clock.advance(hours * 3600 * 1000);
  const upload = (user: User, folder: ItemRow, name: string, data: Buffer | string) =>
    uploadFile(sb, user, folder.id, name, Readable.from([Buffer.from(data)]));

  const ws = createWorkspace(sb, ann, { name: 'Q3 Planning', background_color: '#2f6f9f' });
  const root = sb.db.prepare(`SELECT * FROM items WHERE id = ?`).get(ws.root_folder_id) as ItemRow;
  step(1);
  for (let i = 1; i < members.length; i++) {
    invite(sb, ann, ws.id, [members[i]!.email], roles[i]!);
  }
  step(3);

  const reports = createFolder(sb, ann, root.id, 'Reports');
  const year = createFolder(sb, ann, reports.id, '2026');
  const draftsOld = createFolder(sb, kenji, reports.id, 'Drafts (old)');
  createFolder(sb, ann, root.id, 'Archive'); // stays empty
  // Hidden by an administrator (the API shows it as `hidden?`; there is no endpoint to set it).
  const internal = createFolder(sb, ann, root.id, 'Internal');
  sb.db.prepare(`UPDATE items SET hidden = 1 WHERE id = ?`).run(internal.id);
  const design = createFolder(sb, kenji, root.id, 'Design Assets');
  const icons = createFolder(sb, kenji, design.id, 'Icons 🎨');
  const cafe = createFolder(sb, chloe, root.id, 'Café Meetings');
  const budgets = createFolder(sb, moritz, root.id, 'Budgets & Forecasts');
  const photos = createFolder(sb, chloe, root.id, 'Team Photos 📷');
  createFolder(sb, chloe, photos.id, 'Offsite 2026'); // empty, nested
  step(5);

  await upload(
    ann,
    root,
    'README.txt',
    'Welcome to the Q3 Planning workspace.\nEverything here is synced by Workspace Sync.\n',
  );
  const summary = await upload(
    ann,
    reports,
    'Q3 summary.md',
    '# Q3 summary\n\n- Revenue up 12 %\n- Two new regions\n',
  );
  await upload(kenji, year, 'revenue.csv', csv(400));
  await upload(kenji, design, 'logo.png', gradientPng(64, 64, 180));
  await upload(
    kenji,
    icons,
    'star.svg',
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M5 0l1.5 3.5L10 4 7 6.5 8 10 5 8 2 10l1-3.5L0 4l3.5-.5z"/></svg>\n',
  );
  await upload(kenji, design, 'brand video (draft).bin', pseudoRandomBytes(1_536_000, 7));
  await upload(
    chloe,
    cafe,
    'notes — résumé.txt',
    'Réunion du lundi : café, croissants et le budget du T3.\n',
  );
  await upload(chloe, photos, 'offsite ☀️.png', gradientPng(320, 200, 40));
  await upload(
    moritz,
    budgets,
    'model.json',
    JSON.stringify(
      { quarter: 'Q3', scenarios: ['base', 'stretch'], growth: [0.08, 0.12] },
      null,
      2,
    ) + '\n',
  );
  const scratch = await upload(kenji, draftsOld, 'scratch.txt', 'to be deleted\n');
  step(20);

  // A second version of the summary, a rename, a move and a delete: the history a feed shows.
  await upload(
    moritz,
    reports,
    'Q3 summary.md',
    '# Q3 summary\n\n- Revenue up 12 %\n- Two new regions\n- Hiring plan approved\n',
  );
  step(6);
  renameOrMoveItem(sb, kenji, 'folder', draftsOld.id, { filename: 'Drafts' });
  step(2);
  deleteItem(sb, kenji, 'file', scratch.id);
  step(24);

  addComment(sb, moritz, 'folder', reports.id, 'Can we have the final numbers by Friday?');
  step(1);
  addComment(sb, ann, 'folder', reports.id, 'Yes, Kenji is on it 👍');
  addComment(sb, chloe, 'file', summary.id, 'Ça me semble très bien.');
  step(30);

  readOrCreateLink(sb, ann, 'folder', reports.id);
  await updateLink(sb, ann, 'folder', reports.id, { token_accessible: true });
  readOrCreateLink(sb, ann, 'file', summary.id);
  await updateLink(sb, ann, 'file', summary.id, {
    token_accessible: true,
    require_password: true,
    password: 'q3-demo-link',
  });
  sb.clock.resume();
  return ws.id;
}
