// What main answers for the window itself rather than relaying to the engine host: who may
// call (only our window's main frame showing the bundled renderer), and the OS's dialogs (the
// host has no window to put them over).
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import { Methods } from '../shared/app-api';
import type { CallResult } from './backend/backend';
import type { Logger } from './core/logger';
import { RENDERER_URL } from './app-protocol';
import { chooseFolderDialog } from './platform/folder-dialog';
import { chooseZipDialog } from './platform/save-dialog';
import { mainLanguage } from './platform/language';

/** The calls after which the signed-in servers (whose pages open without a question) are read. */
export const CHANGES_ACCOUNTS =
  /^accounts\.(signIn|signInWithBrowser|signInWithToken|tryDemo|signOut)$/;
/** The calls after which the tray's list of pairs is read again. */
export const CHANGES_PAIRS = new Set([
  'pairs.add',
  'pairs.remove',
  'pairs.pause',
  'pairs.resume',
  'accounts.signOut',
]);
/** Whether an IPC call comes from our window's main frame, showing the bundled renderer. */
export function trustedSender(event: IpcMainInvokeEvent, win: BrowserWindow | null): boolean {
  if (!win || win.isDestroyed() || event.sender !== win.webContents) return false;
  const frame = event.senderFrame;
  return !!frame && frame === win.webContents.mainFrame && frame.url === RENDERER_URL;
}

/** The OS's folder dialog, for `local.chooseFolder`. */
export async function chooseFolder(
  win: BrowserWindow | null,
  log: Logger,
  params: unknown,
): Promise<CallResult> {
  const parsed = Methods['local.chooseFolder'].params.safeParse(params ?? {});
  if (!parsed.success)
    return {
      ok: false,
      error: { kind: 'invalid', message: 'Invalid request to local.chooseFolder.' },
    };
  try {
    return { ok: true, result: { dir: await chooseFolderDialog(win, parsed.data.startAt) } };
  } catch (err) {
    log.warn('the folder dialog failed', { err });
    return {
      ok: false,
      error: {
        kind: 'unsupported',
        message: mainLanguage().t('dialog.folderFailed'),
      },
    };
  }
}

/** The OS's save dialog, for `local.chooseZipFile`. */
export async function chooseZipFile(
  win: BrowserWindow | null,
  log: Logger,
  params: unknown,
): Promise<CallResult> {
  const parsed = Methods['local.chooseZipFile'].params.safeParse(params ?? {});
  if (!parsed.success)
    return {
      ok: false,
      error: { kind: 'invalid', message: 'Invalid request to local.chooseZipFile.' },
    };
  try {
    return { ok: true, result: { path: await chooseZipDialog(win, parsed.data.name) } };
  } catch (err) {
    log.warn('the save dialog failed', { err });
    return {
      ok: false,
      error: { kind: 'unsupported', message: mainLanguage().t('dialog.saveFailed') },
    };
  }
}
