import type { FolderEntry, ServiceClient } from '../api/client';
import { fail } from './errors';
import { WINDOW_LIST_BYTES, WINDOW_LIST_ITEMS, WINDOW_LIST_READ, upTo } from './bounded';

interface Known {
  name: string;
  /** From the workspace's root to the parent ([] for a root). */
  ancestors: number[];
  workspaceId: number | null;
  /** As its parent's listing said (the item panel's details); absent for a root. */
  size?: number | null;
  createdAt?: string | null;
  updatedAt?: string | null;
  userId?: number | null;
}

/** Folders listed while searching for one the index has not seen, before giving up. */
const SEARCH_LIMIT = 500;

/**
 * Where folders are, for breadcrumbs and roles. The contract has no "read a folder": a folder's
 * name and ancestors come from its parent's listing, a root's from its workspace. The index
 * remembers every folder the window has listed (it walks down from a root), and finds the
 * others through a child's `ancestor_ids` or, for an empty folder, a bounded search.
 */
export class FolderIndex {
  private readonly known = new Map<number, Known>();
  /** The names' characters in `known`: it keeps the last ones learnt within a list's bounds. */
  private knownChars = 0;
  /** Root folder id → workspace id. */
  private readonly roots = new Map<number, number>();

  constructor(private readonly client: ServiceClient) {}

  /** Learns from a listing of `parentId`'s contents. */
  remember(entries: readonly FolderEntry[]): void {
    for (const e of entries) {
      if (e.kind !== 'folder') continue;
      const f = e.folder;
      if (!f.ancestor_ids) continue;
      this.know(f.id, {
        name: f.filename,
        ancestors: f.ancestor_ids,
        workspaceId: f.workspace_id ?? null,
        size: f.size ?? null,
        createdAt: f.created_at ?? null,
        updatedAt: f.updated_at,
        userId: f.user_id ?? null,
      });
    }
  }

  /**
   * Remembers a folder, forgetting the oldest learnt past the bounds of a list: every block of
   * Browse teaches the index, and a service naming endless folders must not grow it without end
   * (one forgotten is learnt again from its parent's listing).
   */
  private know(id: number, k: Known): void {
    this.knownChars -= this.known.get(id)?.name.length ?? 0;
    this.known.delete(id);
    this.known.set(id, k);
    this.knownChars += k.name.length;
    for (const [old, o] of this.known) {
      if (this.known.size <= WINDOW_LIST_ITEMS && this.knownChars <= WINDOW_LIST_BYTES) break;
      this.known.delete(old);
      this.knownChars -= o.name.length;
    }
  }

  /** A folder's size, times and maker, as its parent's listing said (null where not told). */
  async details(folderId: number): Promise<{
    size: number | null;
    createdAt: string | null;
    updatedAt: string | null;
    userId: number | null;
  }> {
    const k = await this.find(folderId);
    return {
      size: k.size ?? null,
      createdAt: k.createdAt ?? null,
      updatedAt: k.updatedAt ?? null,
      userId: k.userId ?? null,
    };
  }

  /** The folders from the workspace's root down to `folderId`, both included. */
  async path(folderId: number): Promise<{ id: number; name: string }[]> {
    const here = await this.find(folderId);
    const chain = [...here.ancestors, folderId];
    if (!this.known.has(chain[0]!)) await this.loadRoots();
    const out: { id: number; name: string }[] = [];
    for (const [i, id] of chain.entries()) {
      let k = this.known.get(id);
      if (!k && i > 0) {
        await this.list(chain[i - 1]!, id);
        k = this.known.get(id);
      }
      out.push({ id, name: k?.name ?? '…' });
    }
    return out;
  }

  /** The workspace a folder belongs to. */
  async workspaceOf(folderId: number): Promise<number> {
    const here = await this.find(folderId);
    if (here.workspaceId !== null) return here.workspaceId;
    const root = here.ancestors[0] ?? folderId;
    return this.roots.get(root) ?? fail('not-found', { key: 'backend.folderNotFound' });
  }

  private async loadRoots(): Promise<void> {
    for await (const w of upTo(this.client.listWorkspaces())) {
      this.roots.set(w.root_folder_id, w.id);
      this.know(w.root_folder_id, { name: w.name, ancestors: [], workspaceId: w.id });
    }
  }

  /**
   * Looks through a folder's first WINDOW_LIST_READ entries for `wanted`, remembering it: its
   * first entry and the ids of its folders are all that is kept (a listing kept whole is what a
   * service sending endless pages would fill the memory with).
   */
  private async list(
    folderId: number,
    wanted: number,
  ): Promise<{ first: FolderEntry | null; folders: number[] }> {
    let first: FolderEntry | null = null;
    const folders: number[] = [];
    for await (const e of upTo(this.client.folderContents(folderId))) {
      first ??= e;
      if (e.kind !== 'folder') continue;
      folders.push(e.folder.id);
      if (e.folder.id === wanted) this.remember([e]);
    }
    return { first, folders };
  }

  private async find(folderId: number): Promise<Known> {
    let k = this.known.get(folderId);
    if (k) return k;
    await this.loadRoots();
    k = this.known.get(folderId);
    if (k) return k;
    // Any child names the whole chain: its ancestors end with this folder.
    const { first } = await this.list(folderId, folderId);
    const item = first ? (first.kind === 'folder' ? first.folder : first.file) : null;
    if (item?.ancestor_ids && item.ancestor_ids.length > 0) {
      const ancestors = item.ancestor_ids.slice(0, -1);
      const parent = ancestors[ancestors.length - 1];
      if (parent !== undefined) await this.list(parent, folderId);
      k = this.known.get(folderId) ?? {
        name: '…',
        ancestors,
        workspaceId: item.workspace_id ?? null,
      };
      return k;
    }
    // An empty folder: look for it from the roots down, within a bound.
    const queue = [...this.roots.keys()];
    for (let listed = 0; queue.length > 0 && listed < SEARCH_LIMIT; listed++) {
      const { folders } = await this.list(queue.shift()!, folderId);
      k = this.known.get(folderId);
      if (k) return k;
      queue.push(...folders.slice(0, Math.max(0, WINDOW_LIST_READ - queue.length)));
    }
    return fail('not-found', { key: 'backend.folderGone' });
  }
}
