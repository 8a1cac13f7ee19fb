import { app, dialog, session, shell, type WebContents } from 'electron';
import { mainLanguage } from './language';

/** Whether a URL may leave for the OS browser: web pages only, never file:, javascript: etc. */
export function isExternalWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

const originOf = (url: string): string | null => {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
};

/** The origins of the servers of the signed-in accounts: their pages open without a question. */
let signedIn = new Set<string>();
/** Servers a "sign in with your browser" is under way with (its sign-in page opens at once). */
const pending = new Map<string, number>();

/** The signed-in accounts' servers (base URLs), replacing the previous list. */
export function trustServers(servers: Iterable<string>): void {
  signedIn = new Set([...servers].map(originOf).filter((o): o is string => o !== null));
}

/**
 * Runs `work` (a browser sign-in) with `server`'s pages trusted meanwhile: the person typed that
 * server's address to sign in to it, so its sign-in page opens without a question.
 */
export async function whileSigningIn<T>(server: unknown, work: () => Promise<T>): Promise<T> {
  const origin = typeof server === 'string' ? originOf(server) : null;
  if (origin) pending.set(origin, (pending.get(origin) ?? 0) + 1);
  try {
    return await work();
  } finally {
    if (origin) {
      const left = (pending.get(origin) ?? 1) - 1;
      if (left > 0) pending.set(origin, left);
      else pending.delete(origin);
    }
  }
}

/**
 * What opening `url` in the OS browser takes: a page of a signed-in account's service opens,
 * any other web page only after the person said yes, anything but http(s) never.
 */
export function externalVerdict(url: string): 'open' | 'ask' | 'refuse' {
  if (!isExternalWebUrl(url)) return 'refuse';
  const origin = originOf(url);
  return origin !== null && (signedIn.has(origin) || pending.has(origin)) ? 'open' : 'ask';
}

/** Longest address shown in the question (the whole of it unless it is absurdly long). */
const SHOWN_URL_CHARS = 1_000;

async function personAgrees(url: string): Promise<boolean> {
  // href shows the host as the browser will reach it (punycode): no look-alike letters.
  const href = new URL(url).href;
  const shown = href.length > SHOWN_URL_CHARS ? `${href.slice(0, SHOWN_URL_CHARS)}…` : href;
  const tr = mainLanguage();
  const { response } = await dialog.showMessageBox({
    type: 'question',
    buttons: [tr.t('dialog.openInBrowser'), tr.t('dialog.cancel')],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
    title: tr.t('app.name'),
    message: tr.t('dialog.openAddress'),
    detail: `${shown}\n\n${tr.t('dialog.notSignedIn')}`,
  });
  return response === 0;
}

/** Opens a web page in the OS browser, asking first unless it is the service's own (above). */
export async function openExternal(url: string): Promise<boolean> {
  const verdict = externalVerdict(url);
  if (verdict === 'refuse') return false;
  if (verdict === 'ask' && !(await personAgrees(url))) return false;
  await shell.openExternal(url);
  return true;
}

/**
 * The navigation rules of every web contents the app creates (the Electron security checklist):
 * the window never navigates away from the bundled renderer, never opens another window (web
 * links go to the OS browser), and never attaches a <webview>.
 */
export function hardenContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    void openExternal(url);
    return { action: 'deny' };
  });
}

/** App-wide: every web contents hardened, every permission (camera, notifications…) denied. */
export function hardenApp(): void {
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
  void app.whenReady().then(() => {
    const s = session.defaultSession;
    s.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
    s.setPermissionCheckHandler(() => false);
    s.setDevicePermissionHandler(() => false);
  });
}
