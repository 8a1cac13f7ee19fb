import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { AppCallError, type EditOutcome, type Entry } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { formatBytes } from '../format';
import { currentLanguage } from '../strings';
import { messageOf } from '../components/ErrorMessage';
import { editStrings } from './edit-strings';

// Browse's file operations (issue 42) as the window runs them: each through the backend
// (edit.*, uploads.*), then the folder listed anew; what happened is said in one line, each
// item refused in its own words.

/** Bytes of a file read and sent at a time: their base64 is under UPLOAD_CHUNK_CHARS. */
const PIECE = 512 * 1024;

/** Said when shown (not when done): the window's language may change meanwhile. */
type Say = () => string;

export interface EditSaid {
  /** What was done (polite status). */
  done: Say | null;
  /** What was refused, a line per item (an alert). */
  failed: Say[];
}

export interface UploadProgress {
  name: string;
  /** Bytes of this file sent, and its size. */
  sent: number;
  size: number;
  /** Which file of how many. */
  index: number;
  count: number;
}

const NOTHING: EditSaid = { done: null, failed: [] };

/**
 * A file to upload and the folders it sits in below the one it goes to (a dropped or chosen
 * folder's tree); `file` null: an empty folder of that tree, made alone.
 */
export interface Upload {
  file: File | null;
  dirs: string[];
}

/** The folders of an upload's tree, made once each (or found, where one of the name is there). */
class FolderMaker {
  private readonly made = new Map<string, Promise<number>>();
  constructor(
    private readonly api: ReturnType<typeof useApi>,
    private readonly accountId: string,
    private readonly workspaceId: number,
    private readonly top: number,
  ) {}

  async folderFor(dirs: readonly string[]): Promise<number> {
    let parent = this.top;
    for (let i = 0; i < dirs.length; i++) {
      const key = dirs.slice(0, i + 1).join('/');
      let id = this.made.get(key);
      if (!id) {
        id = this.makeOrFind(parent, dirs[i]!);
        this.made.set(key, id);
      }
      parent = await id;
    }
    return parent;
  }

  private async makeOrFind(parentId: number, name: string): Promise<number> {
    const { api, accountId, workspaceId } = this;
    try {
      return (await api.call('edit.newFolder', { accountId, workspaceId, parentId, name })).id;
    } catch (err) {
      // A folder of that name is there: what is uploaded goes into it, as a file manager's copy.
      if (!(err instanceof AppCallError) || err.error.kind !== 'conflict') throw err;
      const there = await api.call('selection.folders', {
        accountId,
        workspaceId,
        folderId: parentId,
      });
      const found = there.items.find((f) => f.name.toLowerCase() === name.toLowerCase());
      if (!found) throw err;
      return found.id;
    }
  }
}

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

export function useEdit(workspaceId: number) {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const [said, setSaid] = useState<EditSaid>(NOTHING);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const accountId = account.id;

  const relist = useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: ['folders.contents', accountId] });
    await queryClient.invalidateQueries({ queryKey: ['items.onDevice', accountId] });
  }, [queryClient, accountId]);

  /** Runs one operation: its outcome said, the folder listed anew, whatever happened. */
  const run = useCallback(
    async (op: () => Promise<EditSaid>): Promise<boolean> => {
      setBusy(true);
      setSaid(NOTHING);
      try {
        const got = await op();
        setSaid(got);
        return got.failed.length === 0;
      } catch (err) {
        setSaid({ done: null, failed: [() => messageOf(err)] });
        return false;
      } finally {
        setBusy(false);
        setProgress(null);
        await relist();
      }
    },
    [relist],
  );

  const batchSaid = (outcome: EditOutcome, done: Say): EditSaid => ({
    done: outcome.done > 0 ? done : null,
    failed: outcome.failed.map(
      (f) => () =>
        editStrings().itemFailed(f.name, f.words ? currentLanguage().say(f.words) : f.message),
    ),
  });

  const newFolder = (parentId: number, name: string) =>
    run(async () => {
      const made = await api.call('edit.newFolder', { accountId, workspaceId, parentId, name });
      return { done: () => editStrings().created(made.name), failed: [] };
    });

  const rename = (item: { kind: Entry['kind']; id: number }, name: string) =>
    run(async () => {
      const got = await api.call('edit.rename', {
        accountId,
        kind: item.kind,
        itemId: item.id,
        name,
      });
      return { done: () => editStrings().renamed(got.name), failed: [] };
    });

  const move = (
    items: { kind: Entry['kind']; id: number; name: string }[],
    to: { id: number; name: string },
  ) =>
    run(async () => {
      const got = await api.call('edit.move', { accountId, items, to: to.id });
      return batchSaid(got, () => editStrings().moved(got.done, to.name));
    });

  const remove = (items: { kind: Entry['kind']; id: number; name: string }[]) =>
    run(async () => {
      const got = await api.call('edit.delete', { accountId, items });
      return batchSaid(got, () => editStrings().deleted(got.done));
    });

  /**
   * Files one after another, each in pieces, into their folders below `folderId` (made where
   * missing, the one of that name taken where it is there); one refused does not stop the next.
   */
  const upload = (folderId: number, files: readonly Upload[]) =>
    run(async () => {
      const failed: Say[] = [];
      let done = 0;
      const folders = new FolderMaker(api, accountId, workspaceId, folderId);
      const withBytes = files.filter((u): u is { file: File; dirs: string[] } => u.file !== null);
      for (const [index, { file, dirs }] of withBytes.entries()) {
        const at = { name: file.name, size: file.size, index: index + 1, count: withBytes.length };
        setProgress({ ...at, sent: 0 });
        let uploadId: string | null = null;
        try {
          const into = await folders.folderFor(dirs);
          ({ uploadId } = await api.call('uploads.begin', {
            accountId,
            folderId: into,
            name: file.name,
            size: file.size,
          }));
          for (let from = 0; from < file.size; from += PIECE) {
            const piece = new Uint8Array(await file.slice(from, from + PIECE).arrayBuffer());
            await api.call('uploads.chunk', { uploadId, data: base64(piece) });
            setProgress({ ...at, sent: Math.min(file.size, from + PIECE) });
          }
          await api.call('uploads.finish', { uploadId });
          done++;
        } catch (err) {
          const name = [...dirs, file.name].join('/');
          failed.push(() => editStrings().itemFailed(name, messageOf(err)));
          if (uploadId) void api.call('uploads.cancel', { uploadId }).catch(() => undefined);
        }
      }
      // Folders dropped empty: made too.
      for (const { dirs } of files.filter((u) => u.file === null)) {
        try {
          await folders.folderFor(dirs);
        } catch (err) {
          failed.push(() => editStrings().itemFailed(dirs.join('/'), messageOf(err)));
        }
      }
      const count = done;
      return { done: count > 0 ? () => editStrings().uploaded(count) : null, failed };
    });

  const progressText =
    progress &&
    editStrings().uploading(
      progress.count > 1 ? `${progress.name} (${progress.index}/${progress.count})` : progress.name,
      formatBytes(progress.sent),
      formatBytes(progress.size),
    );

  return {
    said,
    busy,
    progress,
    progressText,
    clear: () => setSaid(NOTHING),
    newFolder,
    rename,
    move,
    remove,
    upload,
  };
}

export type Edit = ReturnType<typeof useEdit>;
