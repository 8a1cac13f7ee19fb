import type { ContentSort, FolderEntry, ServiceClient } from '../api/client';
import { fail } from './errors';

// A folder's listing the other way round (Browse's column headers, issue 42): the service sorts
// one way only (its ORDER BY, folders first), so the backend reads the rows a reversed block
// needs from where they are in the service's order, and turns them round. Folders stay first:
// folders reversed among themselves, then files. Where the folders end is found from the pages
// themselves: the first page says it for a folder of fewer than a page of folders, otherwise a
// search by halves over the offsets (a page per step), remembered per listing and checked
// against the folder's count at each read.

type Opts = { query?: string; sort?: ContentSort };

export class ReversedListings {
  /** Per listing: the count it had and how many of it were folders then. */
  private readonly split = new Map<string, { total: number; folders: number }>();

  constructor(private readonly client: ServiceClient) {}

  private page(folderId: number, offset: number, opts: Opts) {
    return this.client.folderContentsPage(folderId, {
      offset,
      ...(opts.query ? { query: opts.query } : {}),
      ...(opts.sort ? { sort: opts.sort } : {}),
    });
  }

  /** How many of the listing's `total` rows are folders (they come first). */
  private async foldersOf(folderId: number, total: number, opts: Opts): Promise<number> {
    const key = `${folderId}|${opts.query ?? ''}|${opts.sort ?? ''}`;
    const known = this.split.get(key);
    if (known?.total === total) return known.folders;
    let lo = 0;
    let hi = total;
    // Bounded: each step halves the range or ends it; a server whose pages do not move on ends it.
    for (let step = 0; lo < hi && step < 64; step++) {
      const mid = lo === 0 ? 0 : Math.floor((lo + hi) / 2);
      const entries = (await this.page(folderId, mid, opts)).entries;
      const file = entries.findIndex((e) => e.kind === 'file');
      if (entries.length === 0 || file === 0) hi = mid;
      else if (file > 0) {
        lo = hi = mid + file;
      } else lo = mid + entries.length;
    }
    this.split.set(key, { total, folders: lo });
    return lo;
  }

  /** Rows `from` to `to` (both included, `from` <= `to`) in the service's order. */
  private async rows(folderId: number, from: number, to: number, opts: Opts) {
    const out: FolderEntry[] = [];
    let at: number | null = from;
    while (at !== null && at <= to) {
      const page = await this.page(folderId, at, opts);
      if (page.entries.length === 0) break;
      out.push(...page.entries.slice(0, to - at + 1));
      at = page.next;
    }
    return out;
  }

  /** `limit` rows from `offset` on, in the reversed order (folders first, each reversed). */
  async contents(
    folderId: number,
    opts: Opts & { offset: number; limit: number },
  ): Promise<{ seen: FolderEntry[]; nextOffset: number | null; total: number }> {
    const first = await this.page(folderId, 0, opts);
    const total = first.total;
    if (total === null) return fail('invalid', { key: 'backend.noReverseOrder' });
    // The first page tells where the folders end when a file is on it (most folders).
    const file = first.entries.findIndex((e) => e.kind === 'file');
    const folders =
      file >= 0 || first.entries.length >= total
        ? file >= 0
          ? file
          : total
        : await this.foldersOf(folderId, total, opts);
    const end = Math.min(total, opts.offset + opts.limit);
    const seen: FolderEntry[] = [];
    // Reversed row i is the service's row folders-1-i (a folder) or total-1-i+folders (a file).
    const from = opts.offset;
    if (from < folders) {
      const last = Math.min(end, folders) - 1;
      const got = await this.rows(folderId, folders - 1 - last, folders - 1 - from, opts);
      seen.push(...got.reverse());
    }
    if (end > folders) {
      const start = Math.max(from, folders);
      const got = await this.rows(
        folderId,
        total - 1 - (end - 1) + folders,
        total - 1 - start + folders,
        opts,
      );
      seen.push(...got.reverse());
    }
    const reached = from + seen.length;
    return { seen, nextOffset: reached < total ? reached : null, total };
  }
}
