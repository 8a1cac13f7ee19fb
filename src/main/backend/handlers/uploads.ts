import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Entry } from '../../../shared/app-api';
import { editRefusal } from '../edit-words';
import { fail } from '../errors';
import { entryOf } from '../map';
import { learnWho } from './edit';
import type { HandlerContext, HandlersOf } from './context';

// Uploads from Browse (issue 42): the window reads the person's files (the OS's picker, or a
// drop) and sends them here in pieces, since the bridge and IPC carry messages of bounded size;
// the pieces wait in a file of the backend's state folder (never the sync root), and go to the
// service as one streamed upload once all of them are here. Progress is the window's, piece by
// piece.

interface Waiting {
  accountId: string;
  folderId: number;
  name: string;
  size: number;
  received: number;
  file: string;
}

export function uploadHandlers(ctx: HandlerContext): HandlersOf<'uploads'> {
  const dir = path.join(ctx.stateDir, 'uploads');
  const waiting = new Map<string, Waiting>();
  // What an earlier run left (a window closed mid-upload) goes at this run's first upload.
  let cleared: Promise<void> | null = null;
  const take = (uploadId: string): Waiting => {
    const w = waiting.get(uploadId);
    return w ?? fail('not-found', { key: 'edit.uploadGone' });
  };
  const forget = async (uploadId: string) => {
    const w = waiting.get(uploadId);
    waiting.delete(uploadId);
    if (w) await rm(w.file, { force: true });
  };

  return {
    'uploads.begin': async (p) => {
      const name = p.name.trim();
      if (!name) fail('invalid', { key: 'edit.nameEmpty' });
      await ctx.account(p);
      cleared ??= rm(dir, { recursive: true, force: true });
      await cleared;
      await mkdir(dir, { recursive: true });
      const uploadId = randomBytes(12).toString('base64url');
      const file = path.join(dir, uploadId);
      await writeFile(file, new Uint8Array(0));
      waiting.set(uploadId, { ...p, name, received: 0, file });
      return { uploadId };
    },
    'uploads.chunk': async (p) => {
      const w = take(p.uploadId);
      const bytes = Buffer.from(p.data, 'base64');
      if (w.received + bytes.length > w.size) {
        await forget(p.uploadId);
        fail('invalid', { key: 'edit.uploadTooLong' });
      }
      await appendFile(w.file, bytes);
      w.received += bytes.length;
      return { received: w.received };
    },
    'uploads.finish': async (p): Promise<Entry> => {
      const w = take(p.uploadId);
      try {
        if (w.received !== w.size) fail('invalid', { key: 'edit.uploadShort' });
        const s = await ctx.account(w);
        const file = await s.client
          .uploadFile(w.folderId, w.name, () => createReadStream(w.file), w.size)
          .catch((err: unknown) => {
            const refusal = editRefusal(err, w.name);
            return refusal ? fail(refusal.kind, refusal.words) : Promise.reject(err);
          });
        learnWho(s, file);
        return entryOf({ kind: 'file', file });
      } finally {
        await forget(p.uploadId);
      }
    },
    'uploads.cancel': async (p) => {
      await forget(p.uploadId);
      return null;
    },
  };
}
