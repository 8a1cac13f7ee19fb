import { Menu, nativeImage, Tray, type MenuItemConstructorOptions } from 'electron';
import path from 'node:path';
import type { TrayCommand, TrayMenuItem } from './tray-menu';
import { trayIconFile, type TrayState } from './tray-state';

function toElectron(
  items: readonly TrayMenuItem[],
  run: (command: TrayCommand) => void,
): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    if (item.type === 'separator') return { type: 'separator' };
    if (item.type === 'submenu') return { label: item.label, submenu: toElectron(item.items, run) };
    const { command } = item;
    return {
      label: item.label,
      enabled: item.enabled,
      ...(command ? { click: () => run(command) } : {}),
    };
  });
}

/** The tray icon and its menu; the menu and the icon are data from tray-menu.ts/tray-state.ts. */
export class AppTray {
  private readonly tray: Tray;
  private state: TrayState | null = null;

  constructor(
    private readonly opts: {
      iconDir: string;
      platform: NodeJS.Platform;
      run: (command: TrayCommand) => void;
      /** A click on the icon itself (Windows, macOS; most Linux trays only open the menu). */
      onClick: () => void;
    },
  ) {
    this.tray = new Tray(this.icon('idle'));
    this.state = 'idle';
    this.tray.on('click', () => opts.onClick());
  }

  update(state: TrayState, menu: readonly TrayMenuItem[], tooltip: string): void {
    if (state !== this.state) {
      this.tray.setImage(this.icon(state));
      this.state = state;
    }
    this.tray.setToolTip(`Workspace Sync: ${tooltip}`);
    this.tray.setContextMenu(Menu.buildFromTemplate(toElectron(menu, this.opts.run)));
  }

  destroy(): void {
    this.tray.destroy();
  }

  private icon(state: TrayState) {
    return nativeImage.createFromPath(
      path.join(this.opts.iconDir, trayIconFile(state, this.opts.platform)),
    );
  }
}
