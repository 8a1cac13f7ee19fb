import { app, session, shell, type WebContents } from 'electron';

/** Whether a URL may leave for the OS browser: web pages only, never file:, javascript: etc. */
export function isExternalWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** Opens a web page in the OS browser; anything else is refused. */
export async function openExternal(url: string): Promise<boolean> {
  if (!isExternalWebUrl(url)) return false;
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
