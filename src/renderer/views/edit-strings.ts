import { currentLanguage } from '../strings';
import { roleName } from './roles';

// Browse's file operations (issue 42) in the window's language, read at each render (the tree
// is drawn again when the language changes: Localized.tsx). Kept apart from strings.ts so the
// operations' words stay in one place beside their views.

export function editStrings() {
  const { t } = currentLanguage();
  return {
    upload: t('edit.upload'),
    uploadHint: t('edit.uploadHint'),
    uploadFolder: t('edit.uploadFolder'),
    newFolder: t('edit.newFolder'),
    newFolderTitle: (folder: string) => t('edit.newFolderTitle', { folder }),
    folderName: t('edit.folderName'),
    create: t('edit.create'),
    rename: t('edit.rename'),
    renameTitle: (name: string) => t('edit.renameTitle', { name }),
    newName: t('edit.newName'),
    renameAction: t('edit.renameAction'),
    moveTo: t('edit.moveTo'),
    moveTitle: (n: number, name: string) => t('edit.moveTitle', { n, name }),
    moveHere: (folder: string) => t('edit.moveHere', { folder }),
    moveFolders: (folder: string) => t('edit.moveFolders', { folder }),
    moveUp: (folder: string) => t('edit.moveUp', { folder }),
    moveKeys: t('edit.moveKeys'),
    delete: t('edit.delete'),
    deleteTitle: (n: number, name: string) => t('edit.deleteTitle', { n, name }),
    deleteSays: (n: number) => t('edit.deleteSays', { n }),
    deleteSynced: t('edit.deleteSynced'),
    deleteAction: t('edit.deleteAction'),
    selected: (n: number) => t('edit.selected', { n }),
    clearSelection: t('edit.clearSelection'),
    selectHint: t('edit.selectHint'),
    select: (name: string) => t('edit.select', { name }),
    created: (name: string) => t('edit.created', { name }),
    renamed: (name: string) => t('edit.renamed', { name }),
    moved: (n: number, folder: string) => t('edit.moved', { n, folder }),
    deleted: (n: number) => t('edit.deleted', { n }),
    uploading: (name: string, done: string, total: string) =>
      t('edit.uploading', { name, done, total }),
    uploaded: (n: number) => t('edit.uploaded', { n }),
    uploadFailed: (name: string) => t('edit.uploadFailed', { name }),
    failed: t('edit.failed'),
    itemFailed: (name: string, why: string) => t('edit.itemFailed', { name, why }),
    dropHere: (folder: string) => t('edit.dropHere', { folder }),
    nameEmpty: t('edit.nameEmpty'),
    nameSlash: t('edit.nameSlash'),
    noCreate: (role: string) => t('edit.noCreate', { role: roleName(role) }),
    noChange: (role: string) => t('edit.noChange', { role: roleName(role) }),
    noDeleteOthers: (role: string) => t('edit.noDeleteOthers', { role: roleName(role) }),
    offlineOnly: t('edit.offlineOnly'),
    roleUnknown: t('edit.roleUnknown'),
  };
}
