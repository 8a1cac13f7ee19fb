import { ApiError } from '../../api/errors';
import type { HandlerContext, HandlersOf } from './context';

/**
 * Thumbnails larger than this are not shown (the service sends the image itself): a data URL
 * crosses the IPC or WebSocket in one message, and a row's icon needs no more.
 */
export const THUMBNAIL_MAX_BYTES = 256 * 1024;
/** Thumbnails kept in memory (all accounts), least recently used dropped first. */
const THUMBNAIL_CACHE_BYTES = 16 * 1024 * 1024;

/** A small LRU of data URLs by key, bounded in bytes (a Map keeps insertion order). */
class ThumbnailCache {
  private readonly entries = new Map<string, string | null>();
  private bytes = 0;

  get(key: string): string | null | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  set(key: string, value: string | null): void {
    this.drop(key);
    this.entries.set(key, value);
    this.bytes += value?.length ?? 0;
    for (const old of this.entries.keys()) {
      if (this.bytes <= THUMBNAIL_CACHE_BYTES) break;
      this.drop(old);
    }
  }

  private drop(key: string): void {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.bytes -= old?.length ?? 0;
    this.entries.delete(key);
  }
}

/** Browse's thumbnails, read through the backend (cached, bounded). */
export function fileHandlers(ctx: HandlerContext): HandlersOf<'files'> {
  const thumbnails = new ThumbnailCache();
  return {
    'files.thumbnail': async (p) => {
      const s = await ctx.account(p);
      const key = `${s.info.id}:${p.fileId}`;
      const cached = thumbnails.get(key);
      if (cached !== undefined) return { dataUrl: cached };
      let dataUrl: string | null = null;
      try {
        const got = await s.client.thumbnail(p.fileId, THUMBNAIL_MAX_BYTES);
        dataUrl = got && `data:${got.mime};base64,${got.bytes.toString('base64')}`;
      } catch (err) {
        // A missing picture is not worth an error in a row: the type's icon stays.
        if (err instanceof ApiError && (err.kind === 'network' || err.kind === 'proxy')) throw err;
        ctx.log.info('no thumbnail', { err });
      }
      thumbnails.set(key, dataUrl);
      return { dataUrl };
    },
  };
}
