// What the down side decides: the plan that makes the disk match the service, as data the
// executor carries out (plan.ts makes it, execute.ts applies it).
import type { JournalItem } from '../../journal/journal';
import type { VolumeProfile } from '../names';
import type { RemoteItem } from '../remote';

/** Where an item belongs locally, in local names, '/'-separated, relative to the root. */
export interface Placement {
  item: RemoteItem;
  path: string;
  name: string;
}

export type StructureOp =
  | ({ type: 'mkdir' } & Placement)
  | ({ type: 'move' } & Placement)
  /** The journal only: remote fields changed, nothing moves on disk. */
  | ({ type: 'record' } & Placement);

export interface Plan {
  /** Folder creations, moves and renames, parents before children. */
  structure: StructureOp[];
  /** Items deleted remotely: to the trash, never unlinked. Run after `structure`. */
  trash: JournalItem[];
  /** New files and new versions, run last (their folders exist by then): single downloads, */
  downloads: Placement[];
  /** and folder archives where many small files make one request cheaper than many. */
  archives: ArchiveJob[];
  /** Files the user's role may not download: recorded as not permitted, no request made. */
  refused: Placement[];
  /** Files kept online only: a placeholder placed or brought up to date, no request made. */
  placeholders?: Placement[];
}

export interface PlanOptions {
  profile: VolumeProfile;
  /** Try again the downloads a role refused before (at a full walk: the role may have changed). */
  retryNotPermitted: boolean;
  /** False when the user's role allows listing but not downloading (Printer, Viewer). */
  mayDownload: boolean;
  /** Synced items known deleted here: they keep no local name of their own (see the executor's). */
  deletedHere?: ReadonlySet<number>;
}

/** A folder whose whole subtree is fetched as one zip; `files` keyed by path inside the zip. */
export interface ArchiveJob {
  folderId: number;
  files: Map<string, Placement>;
  bytes: number;
  /** Files in the subtree (the zip holds them all, needed or not): its size cap allows for them. */
  entries?: number;
}

/**
 * An archive planned when its turn comes (a full walk's: down/plan-walk.ts): a subtree may hold
 * thousands of files, and a chunk many such subtrees, so only the few archives being fetched or
 * unpacked hold their files' placements. Null when none of its files is needed.
 */
export type LazyArchive = () => ArchiveJob | null;
