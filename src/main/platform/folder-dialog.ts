import { homedir } from 'node:os';
import path from 'node:path';
import { dialog, type BrowserWindow } from 'electron';
import { mainLanguage } from './language';

/**
 * The OS's folder dialog for a new pair's folder (the window's Choose… in the desktop app; the
 * browser window has the backend's picker instead). It may create a folder, as Finder's,
 * Explorer's and GTK's dialogs offer. Resolves with the folder chosen, or null when cancelled;
 * the window then checks it (local.checkFolder) like a typed one.
 */
export async function chooseFolderDialog(
  parent: BrowserWindow | null,
  startAt?: string,
  home: string = homedir(),
): Promise<string | null> {
  const tr = mainLanguage();
  const options = {
    title: tr.t('dialog.chooseFolder'),
    buttonLabel: tr.t('dialog.choose'),
    properties: ['openDirectory', 'createDirectory'] as ('openDirectory' | 'createDirectory')[],
    ...(startAt ? { defaultPath: expandTilde(startAt, home) } : {}),
  };
  const r = parent
    ? await dialog.showOpenDialog(parent, options)
    : await dialog.showOpenDialog(options);
  return r.canceled ? null : (r.filePaths[0] ?? null);
}

/** `~` as the window writes the default folder (`~/Workspace Sync/Q3`), for the dialog's start. */
function expandTilde(p: string, home: string): string {
  if (p === '~') return home;
  return p.startsWith('~/') || p.startsWith('~\\') ? path.join(home, p.slice(2)) : p;
}
