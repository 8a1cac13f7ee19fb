import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppBackend } from '../../src/main/backend/backend';
import { silentLogger } from '../../src/main/sync/ports';
import type { AppError } from '../../src/shared/app-api';
import { translator } from '../../src/shared/i18n';
import { callOk } from './backend-calls';
import { backendWithSandbox, type BackendWithSandbox } from './with-backend';

// Issue 39, item 4: Download as zip refused `~`, and for a folder that does not exist saved a
// file named `Downloads` without `.zip`, and said "Saved". A typed place is read as a person
// means it: `~` is home, `.zip` is added, a folder gets a file named after the synced folder,
// a missing folder is refused in one line, nothing existing is replaced.

let t: BackendWithSandbox;
let backend: AppBackend;
let home: string;
let ann: string;
let reports: number;

beforeAll(async () => {
  t = await backendWithSandbox({
    seed: 'demo',
    prefix: 'backend-zip',
    user: 'ann@example.com',
    backend: (tmp) => {
      home = path.join(tmp.dir, 'home');
      mkdirSync(path.join(home, 'Downloads'), { recursive: true });
      return { log: silentLogger, home };
    },
  });
  ({ backend, accountId: ann } = t);
  const root = (await callOk(backend, 'workspaces.list', { accountId: ann })).items.find(
    (w) => w.id === t.sb.workspaceId,
  )!.rootFolderId;
  const page = await callOk(backend, 'folders.contents', { accountId: ann, folderId: root });
  reports = page.items.find((e) => e.name === 'Reports')!.id;
});
afterAll(() => t?.close());

const zipTo = (to: string) =>
  callOk(backend, 'folders.downloadZip', { accountId: ann, folderId: reports, to });

async function refused(to: string): Promise<AppError> {
  const reply = await backend.call('folders.downloadZip', {
    accountId: ann,
    folderId: reports,
    to,
  });
  if (reply.ok) throw new Error(`saved: ${JSON.stringify(reply.result)}`);
  return reply.error;
}

const isZip = (file: string) => readFileSync(file).subarray(0, 2).toString() === 'PK';

describe('Download as zip reads a typed place as a person means it', () => {
  it('`~` is the home folder, and `~/Downloads` a folder in it', async () => {
    const inHome = await zipTo('~');
    expect(inHome.path).toBe(path.join(home, 'Reports.zip'));
    expect(isZip(inHome.path)).toBe(true);
    const inDownloads = await zipTo('~/Downloads');
    expect(inDownloads.path).toBe(path.join(home, 'Downloads', 'Reports.zip'));
    expect(isZip(inDownloads.path)).toBe(true);
  });

  it('a new name gets `.zip` when it lacks it; one with it is kept', async () => {
    const plain = await zipTo(path.join(home, 'Downloads', 'quarter'));
    expect(plain.path).toBe(path.join(home, 'Downloads', 'quarter.zip'));
    expect(isZip(plain.path)).toBe(true);
    const named = await zipTo('~/Downloads/Reports Q3.ZIP');
    expect(named.path).toBe(path.join(home, 'Downloads', 'Reports Q3.ZIP'));
  });

  it('a folder that does not exist is refused in one line, and nothing is written', async () => {
    const before = readdirSync(home).sort();
    const inside = await refused('~/Nowhere/Reports.zip');
    expect(inside.kind).toBe('invalid');
    expect(inside.message).toBe(
      `The folder ${path.join(home, 'Nowhere')} does not exist: choose a folder that does.`,
    );
    expect(translator('de').say(inside.words!)).toBe(
      `Der Ordner ${path.join(home, 'Nowhere')} existiert nicht: Wählen Sie einen vorhandenen Ordner.`,
    );
    // Typed as a folder (a separator at its end): that folder must exist.
    const folder = await refused('~/Later/');
    expect(folder.message).toContain(`The folder ${path.join(home, 'Later')} does not exist`);
    expect(readdirSync(home).sort()).toEqual(before);
  });

  it('an existing file is never replaced: a folder gets a free name, a file named is refused', async () => {
    const dir = path.join(home, 'taken');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'Reports.zip'), 'mine');
    const beside = await zipTo(dir);
    expect(beside.path).toBe(path.join(dir, 'Reports (2).zip'));
    // `.zip` added makes the name of a file that is there: refused, the file kept.
    writeFileSync(path.join(dir, 'old.zip'), 'mine too');
    const e = await refused(path.join(dir, 'old'));
    expect(e.kind).toBe('conflict');
    expect(e.message).toBe(`${path.join(dir, 'old.zip')} already exists: choose another name.`);
    expect(readFileSync(path.join(dir, 'Reports.zip'), 'utf8')).toBe('mine');
    expect(readFileSync(path.join(dir, 'old.zip'), 'utf8')).toBe('mine too');
  });

  it('a relative path is refused, with an example', async () => {
    const e = await refused('Downloads');
    expect(e.message).toBe(
      'Choose where to save the zip by its full path (for example ~/Downloads or /home/ann/Downloads).',
    );
  });
});
