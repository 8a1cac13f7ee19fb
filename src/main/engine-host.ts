// The engine host as main starts it (a utility process in the app; a Node child in tests): its
// settings, and what it asks of main (pushes for the window, others' activity for notices, the
// shell's openers); and the tray's Open folder, which has no window to say a failure in.
import { app, shell } from 'electron';
import type { DesktopOptions } from './desktop-options';
import { EngineClient, type EngineEvents } from './engine-client';
import { mainLanguage } from './platform/language';
import { showNotification } from './platform/notifications';
import { appCipher } from './platform/safe-storage';
import { openExternal } from './platform/security';

/** Starts the engine host and connects it to main. */
export function startEngineHost(
  opts: DesktopOptions,
  on: Pick<EngineEvents, 'push' | 'othersActivity' | 'exited'>,
): EngineClient {
  return new EngineClient(
    opts.forkEngine(),
    {
      stateDir: opts.stateDir,
      ...(opts.configDir ? { configDir: opts.configDir } : {}),
      ...(opts.logsDir ? { logsDir: opts.logsDir } : {}),
      cipher: appCipher.isEncryptionAvailable(),
      version: opts.version,
      verbose: opts.verbose,
      ...(opts.othersPollMs ? { othersPollMs: opts.othersPollMs } : {}),
      locale: app.getLocale(),
    },
    {
      push: on.push,
      othersActivity: on.othersActivity,
      openExternal: (url) => void openExternal(url),
      // showItemInFolder says nothing; openPath answers the system's reason, or ''.
      openPath: async (p, reveal) => {
        if (reveal) {
          shell.showItemInFolder(p);
          return null;
        }
        return (await shell.openPath(p)) || null;
      },
      exited: on.exited,
    },
    appCipher,
  );
}

/** The tray's Open folder: no window to say a failure in, so a notice says it. */
export async function openFolderFromTray(engine: EngineClient, pairId: string): Promise<void> {
  const r = await engine.call('pairs.openFolder', { pairId });
  if (r.ok) return;
  const tr = mainLanguage();
  showNotification({
    title: tr.t('tray.openFailed'),
    body: r.error.words ? tr.say(r.error.words) : r.error.message,
  });
}
