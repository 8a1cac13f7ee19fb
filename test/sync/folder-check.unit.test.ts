import { existsSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSyncFolder, isSystemPath } from '../../src/main/sync/folder-check';
import { SyncFatalError } from '../../src/main/sync/errors';
import { translator } from '../../src/shared/i18n';
import { tempDir } from '../cli/run-cli';

// The one check of a chosen sync folder, on the real file system.

let tmp: { dir: string; remove(): Promise<void> };
beforeAll(async () => {
  tmp = await tempDir('folder-check');
});
afterAll(() => tmp?.remove());

async function refusal(dir: string, create = true): Promise<string> {
  const err = await checkSyncFolder(dir, { create }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SyncFatalError);
  expect((err as SyncFatalError).kind).toBe('folder');
  const message = (err as Error).message;
  // One line, no errno. The paths are taken out first: a temporary folder's random name
  // (`ws-cli-folder-check-qEVCFR`) can hold what looks like one.
  expect(message.replaceAll(tmp.dir, '<tmp>')).not.toMatch(/\n|E[A-Z]{3,}/);
  // In German too, the folder as given (no English word left around it).
  const german = translator('de').say((err as SyncFatalError).words!);
  expect(german.replace(dir, '').replace(/\S*\//g, '')).not.toMatch(
    /\b(is|a|the|not|choose|folder|cannot|file|used)\b/,
  );
  lastGerman = german;
  return message;
}
/** The German of the last refusal. */
let lastGerman = '';

describe('checkSyncFolder', () => {
  it('creates a missing folder and its missing parents, and answers its real path', async () => {
    const dir = path.join(tmp.dir, 'a', 'b', 'Q3');
    expect(await checkSyncFolder(dir, { create: true })).toBe(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    // Again: already there.
    expect(await checkSyncFolder(dir, { create: true })).toBe(dir);
  });

  it('creates nothing when asked not to, and says the folder is missing (null)', async () => {
    const dir = path.join(tmp.dir, 'not-made', 'Q3');
    expect(await checkSyncFolder(dir, { create: false })).toBeNull();
    expect(existsSync(path.join(tmp.dir, 'not-made'))).toBe(false);
  });

  it.skipIf(process.platform !== 'linux')(
    'refuses /proc, /sys and /dev, and a link that leads there, before touching them',
    async () => {
      expect(await refusal('/proc/self/workspace-sync-x')).toMatch(
        /^\/proc\/self\/workspace-sync-x is in a system folder, which holds no files of yours/,
      );
      expect(await refusal('/sys/x')).toMatch(/is in a system folder/);
      expect(await refusal('/dev/null/Q3')).toMatch(/is in a system folder/);
      const link = path.join(tmp.dir, 'innocent');
      symlinkSync('/proc/self', link);
      expect(await refusal(path.join(link, 'a', 'b'))).toMatch(
        /innocent\/a\/b is in a system folder \(it leads to \/proc\/\d+\/a\/b\)/,
      );
      expect(isSystemPath('/procfs/x', 'linux')).toBe(false);
      expect(isSystemPath('/proc', 'linux')).toBe(true);
      // An ordinary tmpfs inside /dev: a folder there is a folder (the benchmarks use it).
      expect(isSystemPath('/dev/shm/Q3', 'linux')).toBe(false);
      expect(isSystemPath('/dev/shm', 'linux')).toBe(true);
    },
  );

  it('says a file is in the way, where the folder or one of its parents should be', async () => {
    const file = path.join(tmp.dir, 'notes.txt');
    writeFileSync(file, 'x');
    expect(await refusal(file)).toBe(`${file} is a file, not a folder: choose a folder.`);
    expect(await refusal(path.join(file, 'Q3'))).toBe(
      `${file} is a file, not a folder: choose a folder.`,
    );
    expect(lastGerman).toBe(`${file} ist eine Datei, kein Ordner: Wählen Sie einen Ordner.`);
  });

  it.skipIf(process.getuid?.() === 0)(
    'says permission is denied where it cannot create the folder',
    async () => {
      const locked = path.join(tmp.dir, 'locked');
      mkdirSync(locked, { mode: 0o500 });
      expect(await refusal(path.join(locked, 'Q3'))).toMatch(
        /locked\/Q3 cannot be used: permission denied\. Choose a folder you can write to\./,
      );
    },
  );

  it('knows the device namespaces of Windows', () => {
    expect(isSystemPath('\\\\.\\PhysicalDrive0', 'win32')).toBe(true);
    expect(isSystemPath('\\\\?\\GLOBALROOT\\Device', 'win32')).toBe(true);
    expect(isSystemPath('\\\\?\\C:\\Users\\ann\\Q3', 'win32')).toBe(false);
    expect(isSystemPath('C:\\Users\\ann\\Q3', 'win32')).toBe(false);
  });

  it.skipIf(process.platform !== 'linux')(
    "refuses /etc, the top of the disk, the home folder itself and the app's own folders (issue 39)",
    async () => {
      expect(await refusal('/etc')).toMatch(/^\/etc is in a system folder/);
      expect(await refusal('/usr/local')).toMatch(/is in a system folder/);
      expect(await refusal('/')).toMatch(/^\/ is the top of a disk: choose a folder inside it/);
      const home = path.join(tmp.dir, 'home');
      mkdirSync(home);
      const inHome = (dir: string) =>
        checkSyncFolder(dir, { create: true, home }).then(
          () => null,
          (e: unknown) => (e as Error).message,
        );
      expect(await inHome(home)).toBe(
        `${home} is your home folder itself, which holds everything of yours: choose a folder inside it.`,
      );
      // Through a link too.
      const link = path.join(tmp.dir, 'to-home');
      symlinkSync(home, link);
      expect(await inHome(link)).toMatch(/is your home folder itself/);
      expect(await inHome(path.join(home, 'Q3'))).toBeNull();
      const state = path.join(tmp.dir, 'state');
      const app = (dir: string) =>
        checkSyncFolder(dir, { create: true, appDirs: [state] }).then(
          () => null,
          (e: unknown) => (e as Error).message,
        );
      expect(await app(path.join(state, 'Q3'))).toBe(
        `${path.join(state, 'Q3')} holds or is inside this app's own data (${state}): choose another folder.`,
      );
      expect(await app(tmp.dir)).toMatch(/holds or is inside this app's own data/);
      // Temporary folders (the tests' own) stay usable.
      expect(await app(path.join(tmp.dir, 'elsewhere'))).toBeNull();
    },
  );
});
