import { app } from 'electron';
import { cp, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { installIntegrations } from './os/integrate';
import { installOpener } from './os/open-handler';
import { FILE_ACTIONS, FILE_ENTRIES, LINK_OPTIONS } from './os/menu-entry';
import { appCommand } from './platform/login-item';
import type { Logger } from './core/logger';

const QUICK_ACTION = 'Copy Workspace Sync Link.workflow';

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

/**
 * "Copy Workspace Sync link" in the OS file manager, installed per user at each start of the
 * packaged app (idempotent, so a moved AppImage is followed): Nautilus, Nemo, Dolphin and
 * Thunar entries on Linux, with files on demand's (`--files ACTION`) and the opener of
 * placeholders (`--open`), the Finder Quick Action on macOS. On Windows the installer writes the
 * registry entry. An unpackaged (development) run installs nothing: its binary is not the app.
 */
export async function installDesktopIntegrations(opts: {
  log: Logger;
  resources: string;
}): Promise<void> {
  if (!app.isPackaged) return;
  if (process.platform === 'linux') {
    const written = await installIntegrations({
      command: [appCommand(), '--copy-link'],
      env: process.env,
      home: homedir(),
    });
    // Its options beside it (issue 42): the app's own CLI serves the page at the item's link
    // panel in the browser (`--cli ui --link-options`; it opens no engine, so it runs beside
    // the app's). A small window of the app's own is not built yet.
    written.push(
      ...(await installIntegrations(
        {
          command: [appCommand(), '--cli', 'ui', '--link-options'],
          env: process.env,
          home: homedir(),
        },
        LINK_OPTIONS,
      )),
    );
    // Files on demand's entries (issue 41), done by the running app's engines.
    for (const a of FILE_ACTIONS) {
      const entry = FILE_ENTRIES[a];
      const command = [appCommand(), '--files', a];
      written.push(
        ...(await installIntegrations({ command, env: process.env, home: homedir() }, entry)),
      );
    }
    opts.log.info('file-manager entries installed', { written });
    // A placeholder's double-click (issue 41) opens through the app where it is installed: the
    // app's own engine downloads the file, in the running app or in one it starts.
    const opener = await installOpener({
      command: [appCommand(), '--open'],
      env: process.env,
      home: homedir(),
    });
    opts.log.info('placeholder opener installed', {
      written: opener.done,
      failures: opener.failures.length,
      notes: opener.notes.length,
    });
  } else if (process.platform === 'darwin') {
    const target = path.join(homedir(), 'Library', 'Services', QUICK_ACTION);
    if (await exists(target)) return;
    await cp(path.join(opts.resources, 'quick-action', QUICK_ACTION), target, { recursive: true });
    opts.log.info('Finder Quick Action installed', { target });
  }
}
