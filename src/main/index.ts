import { app, BrowserWindow, ipcMain } from 'electron';
import path from 'node:path';
import { IpcChannel, type AppInfo } from '../shared/app-api';
import { mainWindowOptions } from './window-options';

// The thin Electron shell: everything it hosts lives in modules that run under plain Node.
const outDir = path.dirname(import.meta.dirname);

function createMainWindow(): BrowserWindow {
  const win = new BrowserWindow(mainWindowOptions(path.join(outDir, 'preload', 'index.cjs')));
  win.once('ready-to-show', () => win.show());
  // The window never navigates away from the bundled renderer.
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  void win.loadFile(path.join(outDir, 'renderer', 'index.html'));
  return win;
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // The typed API over IPC; the desktop issue hosts the whole backend here. Until then the
  // window learns what it runs in, and every other method answers "unsupported".
  ipcMain.handle(IpcChannel.call, (_event, id: number, method: string): unknown => {
    if (method !== 'app.info') {
      return {
        id,
        ok: false,
        error: { kind: 'unsupported', message: `${method} is not available in this build.` },
      };
    }
    const platform = process.platform;
    const result: AppInfo = {
      name: app.getName(),
      version: app.getVersion(),
      platform: platform === 'darwin' || platform === 'win32' ? platform : 'linux',
      demo: false,
    };
    return { id, ok: true, result };
  });
  void app.whenReady().then(() => {
    let win = createMainWindow();
    app.on('second-instance', () => {
      if (win.isDestroyed()) win = createMainWindow();
      if (win.isMinimized()) win.restore();
      win.focus();
    });
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
