import type { JournalItem } from '../../src/main/journal/journal';

/**
 * A journal row of an item synced and unchanged, as a big journal's tests and benches fill it:
 * its name from its path, made-up identity and facts, one service time.
 */
export function syncedRow(
  id: number,
  localPath: string,
  kind: 'folder' | 'file',
  parent: number,
): JournalItem {
  const name = localPath.slice(localPath.lastIndexOf('/') + 1);
  return {
    remoteId: id,
    kind,
    remoteParentId: parent,
    remoteName: name,
    localPath,
    localName: name,
    dev: 1,
    ino: id + 1000,
    size: kind === 'file' ? 10 : null,
    mtimeMs: kind === 'file' ? 1.5 : null,
    hash: kind === 'file' ? 'h' : null,
    remoteSize: kind === 'file' ? 10 : null,
    remoteUpdatedAt: '2026-11-23T10:00:00+01:00',
    state: 'synced',
  };
}
