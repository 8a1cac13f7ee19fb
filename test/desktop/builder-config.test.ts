// The packaging configuration, checked without building: the Electron binary cannot be fetched
// here, so `npm run dist` cannot run. electron-builder.yml is loaded and validated by
// electron-builder's own code, every file it names must exist, and the assets it ships (icons,
// launchers, installer hooks) are checked for what each OS needs of them.
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { decode } from 'fast-png';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Config = Awaited<ReturnType<typeof getConfig>>;

const root = path.resolve(import.meta.dirname, '../..');
const assets = path.join(root, 'assets');
const STATES = ['idle', 'syncing', 'paused', 'offline', 'error', 'attention'] as const;
// validateConfiguration logs through this only when it is enabled.
const quietLogger: Parameters<typeof validateConfiguration>[1] = {
  isEnabled: false,
  data: new Map(),
  add: () => undefined,
  save: async () => undefined,
};

const validate = (config: unknown) =>
  // A copy: the validator coerces types in place.
  validateConfiguration(structuredClone(config) as Config, quietLogger);

/** Width and height from a PNG's IHDR chunk. */
function pngSize(data: Buffer): [number, number] {
  expect(data.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(data.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return [data.readUInt32BE(16), data.readUInt32BE(20)];
}

/** Each image of an ICO: the size its directory entry declares and the size its data holds. */
function icoImages(data: Buffer): { declared: number; actual: [number, number] }[] {
  expect(data.readUInt16LE(0)).toBe(0);
  expect(data.readUInt16LE(2)).toBe(1); // an icon, not a cursor
  return Array.from({ length: data.readUInt16LE(4) }, (_, i) => {
    const entry = 6 + 16 * i;
    const declared = data[entry] === 0 ? 256 : data[entry]!;
    const body = data.subarray(data.readUInt32LE(entry + 12));
    const actual: [number, number] =
      body.subarray(1, 4).toString('latin1') === 'PNG'
        ? pngSize(body)
        : [body.readInt32LE(4), body.readInt32LE(8) / 2]; // a DIB: its height counts the mask too
    expect(data.readUInt16LE(entry + 6)).toBe(32);
    return { declared, actual };
  });
}

/** The OSType and PNG pixel size of each ICNS element. */
function icnsImages(data: Buffer): Map<string, number> {
  expect(data.subarray(0, 4).toString('latin1')).toBe('icns');
  expect(data.readUInt32BE(4)).toBe(data.length);
  const found = new Map<string, number>();
  for (let at = 8; at < data.length;) {
    const length = data.readUInt32BE(at + 4);
    const [w, h] = pngSize(data.subarray(at + 8, at + length));
    expect(w).toBe(h);
    found.set(data.subarray(at, at + 4).toString('latin1'), w);
    at += length;
  }
  return found;
}

function pixels(file: string) {
  const image = decode(readFileSync(file));
  expect([image.channels, image.depth]).toEqual([4, 8]);
  return image.data;
}

function shellSyntaxError(file: string): string {
  const result = spawnSync('sh', ['-n', file], { encoding: 'utf8' });
  return result.status === 0 ? '' : result.stderr;
}

let config: Config;
beforeAll(async () => {
  config = await getConfig(root, 'electron-builder.yml', null);
});

describe('electron-builder.yml', () => {
  it("passes electron-builder's own validation", async () => {
    await expect(validate(config)).resolves.toBeUndefined();
  });

  it('a broken copy is rejected (the validator bites)', async () => {
    const typo = structuredClone(config) as Config & { electronFuses: Record<string, unknown> };
    typo.electronFuses.runAsNod = false;
    await expect(validate(typo)).rejects.toThrow(/configuration\.electronFuses/);
    // A macOS option at the top level, where it means nothing.
    const misplaced: Record<string, unknown> = {
      ...structuredClone(config),
      hardenedRuntime: true,
    };
    await expect(validate(misplaced)).rejects.toThrow(/unknown property 'hardenedRuntime'/);
  });

  it('sets every fuse for production', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('builds AppImage and deb, dmg, and nsis, with the native modules out of the asar', () => {
    expect(config.appId).toBe('com.workspacesync.desktop');
    expect(config.asar).toBe(true);
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toBe('dmg');
    expect(config.win?.target).toBe('nsis');
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining([
        '**/node_modules/better-sqlite3/**',
        '**/node_modules/keytar/**',
        '**/*.node',
      ]),
    );
    expect(config.npmRebuild).toBe(true);
    expect(config.deb?.depends).toContain('libsecret-1-0');
    // `depends` replaces electron-builder's list, which Electron itself needs.
    expect(config.deb?.depends).toEqual(expect.arrayContaining(['libgtk-3-0', 'libnss3']));
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: false });
    expect(config.mac).toMatchObject({ hardenedRuntime: true, notarize: false });
  });

  it('ships the tray icons everywhere and the CLI launcher and Quick Action per OS', () => {
    const resources = (list: unknown) =>
      (list as { from: string; to: string }[]).map(({ from, to }) => `${from} -> ${to}`);
    expect(resources(config.extraResources)).toEqual(['assets/tray -> tray']);
    expect(resources(config.linux?.extraResources)).toEqual([
      'assets/bin/workspace-sync -> bin/workspace-sync',
    ]);
    expect(resources(config.mac?.extraResources)).toEqual([
      'assets/bin/workspace-sync -> bin/workspace-sync',
      'assets/mac/Copy Workspace Sync Link.workflow -> quick-action/Copy Workspace Sync Link.workflow',
    ]);
    expect(resources(config.win?.extraResources)).toEqual([
      'assets/bin/workspace-sync.cmd -> bin/workspace-sync.cmd',
    ]);
  });

  it('names only files that exist', () => {
    const named: string[] = [];
    const keys = new Set(['icon', 'entitlements', 'entitlementsInherit', 'include']);
    keys.add('afterInstall').add('afterRemove').add('from').add('buildResources');
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node != null && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (keys.has(key) && typeof value === 'string') named.push(value);
          else walk(value);
        }
      }
    };
    walk(config);
    // Three icons, two entitlements, the NSIS include, two deb scripts, five resources, assets/.
    expect(named).toHaveLength(14);
    expect(named.filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
  });

  it('grants the hardened runtime only JIT', () => {
    const plist = readFileSync(path.join(root, config.mac!.entitlements!), 'utf8');
    const granted = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<true\/>/g)].map((m) => m[1]);
    expect(granted).toEqual(['com.apple.security.cs.allow-jit']);
  });
});

describe('icons', () => {
  it.each(STATES)(
    'tray %s: Linux PNGs, macOS templates and a Windows ICO at their sizes',
    (state) => {
      const sizes: [string, number][] = [
        [`${state}.png`, 24],
        [`${state}@2x.png`, 48],
        [`${state}Template.png`, 16],
        [`${state}Template@2x.png`, 32],
      ];
      for (const [name, size] of sizes) {
        expect(pngSize(readFileSync(path.join(assets, 'tray', name))), name).toEqual([size, size]);
      }
      const ico = icoImages(readFileSync(path.join(assets, 'tray', `${state}.ico`)));
      expect(ico.map((i) => i.declared)).toEqual([16, 20, 24, 32, 40, 48]);
      for (const { declared, actual } of ico) expect(actual).toEqual([declared, declared]);
    },
  );

  it.each(STATES)(
    'tray %s: the template is black and alpha only, the Linux icon has colour',
    (state) => {
      for (const name of [`${state}Template.png`, `${state}Template@2x.png`]) {
        const data = pixels(path.join(assets, 'tray', name));
        let drawn = 0;
        for (let i = 0; i < data.length; i += 4) {
          if (data[i + 3] === 0) continue;
          drawn++;
          expect([data[i], data[i + 1], data[i + 2]], name).toEqual([0, 0, 0]);
        }
        expect(drawn, name).toBeGreaterThan(0);
      }
      const data = pixels(path.join(assets, 'tray', `${state}.png`));
      let coloured = false;
      for (let i = 0; i < data.length && !coloured; i += 4) {
        coloured = data[i + 3]! > 0 && (data[i] !== data[i + 1] || data[i + 1] !== data[i + 2]);
      }
      expect(coloured).toBe(true);
    },
  );

  it('the app icon: 1024 PNG, Linux sizes, ICO up to 256, ICNS up to 1024', () => {
    expect(pngSize(readFileSync(path.join(assets, 'icon.png')))).toEqual([1024, 1024]);
    for (const size of [16, 32, 48, 64, 128, 256, 512]) {
      const file = path.join(assets, 'icons', `${size}x${size}.png`);
      expect(pngSize(readFileSync(file))).toEqual([size, size]);
    }
    const ico = icoImages(readFileSync(path.join(assets, 'icon.ico')));
    expect(ico.map((i) => i.declared)).toEqual([16, 24, 32, 48, 64, 128, 256]);
    for (const { declared, actual } of ico) expect(actual).toEqual([declared, declared]);
    const icns = icnsImages(readFileSync(path.join(assets, 'icon.icns')));
    expect(Object.fromEntries(icns)).toEqual({
      icp4: 16,
      icp5: 32,
      ic11: 32,
      ic12: 64,
      ic07: 128,
      ic08: 256,
      ic13: 256,
      ic09: 512,
      ic14: 512,
      ic10: 1024,
    });
  });
});

describe('installer hooks and launchers', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'ws-launcher-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const shellScripts = ['bin/workspace-sync', 'linux/after-install.sh', 'linux/after-remove.sh'];

  it.each(shellScripts)('%s is valid sh and executable', (file) => {
    expect(shellSyntaxError(path.join(assets, file))).toBe('');
    expect(statSync(path.join(assets, file)).mode & 0o111).toBe(0o111);
  });

  it("the deb scripts use only electron-builder's template macros", () => {
    for (const file of ['linux/after-install.sh', 'linux/after-remove.sh']) {
      const text = readFileSync(path.join(assets, file), 'utf8');
      const macros = new Set([...text.matchAll(/\$\{([a-zA-Z]+)\}/g)].map((m) => m[1]));
      expect([...macros].sort(), file).toEqual(['executable', 'sanitizedProductName']);
      expect(text).toContain('/resources/bin/workspace-sync');
    }
  });

  it('the NSIS include adds and removes the per-user copy-link verbs', () => {
    const nsh = readFileSync(path.join(root, config.nsis!.include!), 'utf8');
    expect(nsh).toMatch(/!macro customInstall[\s\S]*!macroend/);
    expect(nsh).toMatch(/!macro customUnInstall[\s\S]*!macroend/);
    expect(nsh).toContain('shell\\WorkspaceSync.CopyLink');
    expect(nsh).toContain('wsWriteCopyLinkVerb "*"');
    expect(nsh).toContain('wsWriteCopyLinkVerb "Directory"');
    expect(nsh).toContain(`'"$INSTDIR\\\${APP_EXECUTABLE_FILENAME}" --copy-link "%1"'`);
    expect(nsh).toContain('DeleteRegKey HKCU "Software\\Classes\\*\\${WS_COPY_LINK_VERB}"');
    expect(nsh).toContain('DeleteRegKey HKCU "Software\\Classes\\Directory\\${WS_COPY_LINK_VERB}"');
    expect(nsh).not.toMatch(/HKLM/);
  });

  it("the Quick Action's shell script is valid sh and copies a link per file", () => {
    const bundle = path.join(assets, 'mac/Copy Workspace Sync Link.workflow/Contents');
    expect(readFileSync(path.join(bundle, 'Info.plist'), 'utf8')).toContain('NSServices');
    const wflow = readFileSync(path.join(bundle, 'document.wflow'), 'utf8');
    const command = /<key>COMMAND_STRING<\/key>\s*<string>([\s\S]*?)<\/string>/.exec(wflow)?.[1];
    const script = command!
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&apos;', "'")
      .replaceAll('&amp;', '&');
    expect(script).toContain('--copy-link "$f"');
    const file = path.join(work, 'quick-action.sh');
    writeFileSync(file, script);
    expect(shellSyntaxError(file)).toBe('');
  });

  /** An installed layout: `app` is a stand-in binary that prints its arguments, one a line. */
  function install(appBinary: string): string {
    const resources = path.join(
      path.dirname(appBinary),
      ...(appBinary.includes('MacOS') ? ['..', 'Resources'] : ['resources']),
    );
    mkdirSync(path.join(resources, 'bin'), { recursive: true });
    cpSync(path.join(assets, 'bin/workspace-sync'), path.join(resources, 'bin/workspace-sync'));
    mkdirSync(path.dirname(appBinary), { recursive: true });
    writeFileSync(appBinary, '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n');
    chmodSync(appBinary, 0o755);
    return path.join(resources, 'bin/workspace-sync');
  }

  const run = (launcher: string, env: NodeJS.ProcessEnv = {}) =>
    execFileSync(launcher, ['sync', '--dry run', '*'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, ...env },
    }).split('\n');

  it('the POSIX launcher runs the deb install through /usr/bin symlink with --cli', () => {
    const launcher = install(path.join(work, 'opt/Workspace Sync/workspace-sync'));
    mkdirSync(path.join(work, 'usr/bin'), { recursive: true });
    const link = path.join(work, 'usr/bin/workspace-sync');
    symlinkSync(launcher, link);
    expect(run(link)).toEqual(['--cli', 'sync', '--dry run', '*', '']);
  });

  it('the POSIX launcher finds the macOS app binary beside Resources', () => {
    const launcher = install(path.join(work, 'Workspace Sync.app/Contents/MacOS/Workspace Sync'));
    expect(run(launcher)).toEqual(['--cli', 'sync', '--dry run', '*', '']);
  });

  it('the POSIX launcher inside a mounted AppImage starts the AppImage, and only there', () => {
    const mount = path.join(work, 'appimage-mount');
    const launcher = install(path.join(mount, 'workspace-sync'));
    const image = path.join(work, 'Workspace Sync.AppImage');
    writeFileSync(image, '#!/bin/sh\necho image "$@"\n');
    chmodSync(image, 0o755);
    expect(run(launcher, { APPIMAGE: image, APPDIR: mount })).toEqual([
      'image --cli sync --dry run *',
      '',
    ]);
    // An APPIMAGE inherited from some other AppImage does not hijack an installed launcher.
    expect(run(launcher, { APPIMAGE: image, APPDIR: path.join(work, 'elsewhere') })[0]).toBe(
      '--cli',
    );
  });

  it('the POSIX launcher says so when the app is missing', () => {
    const launcher = install(path.join(work, 'broken/workspace-sync'));
    rmSync(path.join(work, 'broken/workspace-sync'));
    const result = spawnSync(launcher, ['status'], { encoding: 'utf8' });
    expect(result.status).toBe(127);
    expect(result.stderr).toMatch(/Workspace Sync app was not found/);
  });
});
