import path from 'node:path';
import { app, dialog, type BrowserWindow } from 'electron';
import { mainLanguage } from './language';

/**
 * The OS's save dialog for a folder's zip (the window's Download as zip in the desktop app; the
 * browser window types the place instead). It starts in Downloads at `<name>.zip`. No overwrite
 * question of ours: the backend never replaces a file (a name taken is refused in words), so the
 * dialog asks nothing it would not honour. Resolves with the path chosen, or null when cancelled.
 */
export async function chooseZipDialog(
  parent: BrowserWindow | null,
  name: string,
): Promise<string | null> {
  const tr = mainLanguage();
  const options = {
    title: tr.t('dialog.saveZip'),
    buttonLabel: tr.t('dialog.save'),
    defaultPath: path.join(app.getPath('downloads'), zipFileName(name)),
    filters: [{ name: tr.t('dialog.zipFiles'), extensions: ['zip'] }],
    properties: ['createDirectory'] as 'createDirectory'[],
  };
  const r = parent
    ? await dialog.showSaveDialog(parent, options)
    : await dialog.showSaveDialog(options);
  return r.canceled || !r.filePath ? null : r.filePath;
}

/** A folder's name as the zip's suggested file name: no separators, never empty. */
export function zipFileName(name: string): string {
  const cleaned = name.replace(/[/\\:*?"<>|\p{Cc}]/gu, '-').replace(/^[.\s]+|[.\s]+$/g, '');
  return `${cleaned || 'folder'}.zip`;
}
