// The entries a scan could not match as it went (moved, replaced, swapped, still being
// written), matched once every identity on disk is known: each is the synced item recorded at
// its place, a synced item moved there (by its identity), or new. A chain of "my place's
// identity is over there" is followed to its end, so swaps and rotations of names are moves and
// an editor's save through a temporary file is a new version.
import { closeSync, lstatSync } from 'node:fs';
import type { Journal, JournalItem } from '../../journal/journal';
import type { LocalRoot } from '../local';
import { hashFdSync } from '../file-read';
import { parentOf } from '../paths';
import type { LocalEntry, LocalScan } from '../detect-local/scan';
import type { LocalPlan } from './local-plan';

const idKey = (dev: number | null, ino: number | null) => `${dev}:${ino}`;

/**
 * The same entry under a name that differs from the recorded one only in ways the volume ignores
 * (a case-only rename on a case-insensitive volume): a rename to send. Normalization alone is not
 * one (macOS may hand back either form).
 */
export const renamedInPlace = (j: Pick<JournalItem, 'localName'>, e: LocalEntry): boolean =>
  j.localName !== e.name && j.localName.normalize('NFC') !== e.name.normalize('NFC');

/** What the matcher asks of the reconciler: the folders as matched so far, and their records. */
export interface MatchPlaces {
  /** The synced folder at a path, as matched (else the journal's). */
  folderAt(p: string): number | undefined;
  /** The records of a folder's children, by the volume's key of their names. */
  kidsOf(parentId: number): Map<string, JournalItem>;
  key(name: string): string;
  /** The entry is the synced item `j`, in its recorded place (claimed for good). */
  inPlace(j: JournalItem, e: LocalEntry): void;
  /** A folder matched to an item recorded elsewhere: the journal does not know it there yet. */
  movedFolder(path: string, remoteId: number): void;
  /** Whether the entry is a placeholder, taken as such (files on demand: placeholder-moves.ts). */
  placeholder?(e: LocalEntry): boolean;
}

/** Matches the entries that waited (`scan.entries`), into `plan`. */
export class WaitingMatcher {
  /**
   * The identities of the entries that waited: only they can be a synced item seen elsewhere
   * (an entry matched or new was nothing but what is recorded at its own place).
   */
  private readonly seenIds = new Map<string, LocalEntry>();
  /** Entries that stay the item recorded at their place (true), or give it up: as decided. */
  private readonly keeps = new Map<LocalEntry, boolean>();

  constructor(
    private readonly journal: Journal,
    private readonly local: LocalRoot,
    private readonly plan: LocalPlan,
    /** Items claimed by an entry: no other entry is them. */
    private readonly claimed: Set<number>,
    private readonly places: MatchPlaces,
    private readonly scan: LocalScan,
  ) {
    for (const e of scan.entries.values()) this.seenIds.set(idKey(e.dev, e.ino), e);
  }

  matchAll(): void {
    for (const e of this.scan.entries.values()) this.match(e);
  }

  private match(e: LocalEntry): void {
    const { plan } = this;
    if (this.places.placeholder?.(e)) return;
    const atPlace = this.placeOf(e);
    const sameId = this.identityOf(e);

    // Equal bytes at a synced file's place are that file, whatever its inode says: two
    // identical files swapped, or deleted and written again into each other's freed inodes,
    // are not moves (a move onto a name its holder is leaving would cross on the service).
    if (atPlace && this.samePlaceBytes(atPlace, e)) {
      this.stays(atPlace, e);
      return;
    }
    if (sameId && atPlace && sameId.remoteId === atPlace.remoteId) {
      if (renamedInPlace(atPlace, e)) this.moveTo(atPlace, e);
      else this.stays(atPlace, e);
      return;
    }
    // A file keeps its place over an inode found elsewhere (editors save through a temporary
    // file); a folder's identity wins. Neither keeps a place whose item was seen elsewhere,
    // unless the file seen with it stays its own place's item and this one is no other item
    // moved: then nothing else claims the item here (a new file and a delete would take its
    // id, its history, and a delete a Creator may not make).
    const seenThere = atPlace && atPlace.ino !== e.ino ? this.seenAs(atPlace) : undefined;
    const moved = this.movedFrom(e, sameId);
    const movedAway =
      seenThere !== undefined &&
      (e.kind === 'folder' || moved !== undefined || !this.keepsPlace(seenThere));
    const placeWins =
      atPlace !== undefined &&
      !movedAway &&
      (e.kind === 'file' || !sameId || !this.vacated(sameId));
    if (atPlace && placeWins) {
      this.stays(atPlace, e);
      return;
    }
    if (moved) {
      this.moveTo(moved, e);
      return;
    }
    this.keeps.set(e, false);
    if (e.kind === 'folder') plan.mkdirs.push({ type: 'mkdir', entry: e });
    else if (!e.stillWriting) plan.uploads.push({ type: 'upload', entry: e, item: null });
  }

  /** The entry that waited with the item's identity (a file's with its size and time too). */
  private seenAs(j: JournalItem): LocalEntry | undefined {
    const seen = this.seenIds.get(idKey(j.dev, j.ino));
    if (!seen || seen.kind !== j.kind) return undefined;
    const same = j.kind === 'folder' || (seen.size === j.size && seen.mtimeMs === j.mtimeMs);
    return same ? seen : undefined;
  }

  /**
   * The item's inode is no longer at its recorded place (so it moved rather than was linked).
   * An entry matched there is not remembered: the disk is asked (only for items whose identity
   * an entry that waited has).
   */
  private vacated(j: JournalItem): boolean {
    const there = this.scan.entries.get(j.localPath);
    if (there) return there.ino !== j.ino || there.dev !== j.dev;
    const st = lstatSync(this.local.abs(j.localPath), { throwIfNoEntry: false });
    return !st || st.ino !== j.ino || st.dev !== j.dev;
  }

  private placeOf(e: LocalEntry): JournalItem | undefined {
    const { places } = this;
    const parentId = places.folderAt(parentOf(e.path));
    const byName =
      parentId === undefined ? undefined : places.kidsOf(parentId).get(places.key(e.name));
    return byName && byName.kind === e.kind && !this.claimed.has(byName.remoteId)
      ? byName
      : undefined;
  }

  private identityOf(e: LocalEntry): JournalItem | undefined {
    return this.journal.items
      .byInode(e.dev, e.ino)
      .find((j) => j.kind === e.kind && !this.claimed.has(j.remoteId) && j.state === 'synced');
  }

  /**
   * The synced item the entry is by its identity, moved here: a rename keeps a file's size and
   * mtime; a freed inode reused by a new file does not.
   */
  private movedFrom(e: LocalEntry, sameId = this.identityOf(e)): JournalItem | undefined {
    const sameFile =
      e.kind === 'folder' || (sameId?.size === e.size && sameId.mtimeMs === e.mtimeMs);
    return sameId && sameFile && this.vacated(sameId) ? sameId : undefined;
  }

  /**
   * Whether a waiting file stays the synced file recorded at its place, looked ahead of its
   * turn. It gives its place up when that item's identity is seen at another entry that does
   * not stay its own place's item, or when it is itself another item moved (`mv current.log
   * old.log; mv new.log current.log`). So the chain of "my place's identity is over there" is
   * followed to its end: to a file whose place's identity is nowhere (or whose bytes are the
   * same), which stays, and so does each before it that is no other item moved (`rm a b`, a
   * written anew into b's freed inode with b's bytes, b into a new one: each keeps its name,
   * nothing deleted); or to an entry with no place of its own, or round (a swap, a rotation):
   * they move.
   */
  private keepsPlace(start: LocalEntry): boolean {
    const chain: LocalEntry[] = [];
    const onChain = new Set<LocalEntry>();
    let e: LocalEntry | undefined = start;
    let kept = this.keeps.get(e);
    while (kept === undefined && e !== undefined) {
      if (onChain.has(e) || e.kind !== 'file') {
        kept = false;
        break;
      }
      const j = this.placeOf(e);
      if (!j || j.state !== 'synced') kept = false;
      else if ((j.ino === e.ino && j.dev === e.dev) || this.samePlaceBytes(j, e)) kept = true;
      else {
        const next = this.seenAs(j);
        if (!next) kept = true;
        else {
          chain.push(e);
          onChain.add(e);
          if (this.movedFrom(e)) kept = false;
          else kept = this.keeps.get((e = next));
        }
      }
    }
    for (const c of chain) this.keeps.set(c, kept ?? false);
    return kept ?? false;
  }

  private moveTo(j: JournalItem, e: LocalEntry): void {
    this.keeps.set(e, false);
    this.claimed.add(j.remoteId);
    if (e.kind === 'folder') this.places.movedFolder(e.path, j.remoteId);
    this.plan.moves.push({ type: 'move', item: j, entry: e });
  }

  private stays(j: JournalItem, e: LocalEntry): void {
    this.keeps.set(e, true);
    this.places.inPlace(j, e);
  }

  /**
   * A file at the place of synced file `j` under another inode, with `j`'s size and time, and
   * nothing known that says it holds other bytes: the synced file whose inode it has, if that
   * one has the same size and time too and a different recorded hash, tells only by a read of
   * the entry (once, for such a pair only). An unreadable entry is taken for `j` (its upload
   * compares the bytes again, and sends a new version if they differ).
   */
  private samePlaceBytes(j: JournalItem, e: LocalEntry): boolean {
    if (e.kind !== 'file' || j.state !== 'synced') return false;
    if (j.ino === e.ino && j.dev === e.dev) return false;
    if (j.size !== e.size || j.mtimeMs !== e.mtimeMs) return false;
    const other = this.journal.items
      .byInode(e.dev, e.ino)
      .find(
        (o) =>
          o.remoteId !== j.remoteId &&
          o.kind === 'file' &&
          o.state === 'synced' &&
          o.size === e.size &&
          o.mtimeMs === e.mtimeMs,
      );
    if (!other?.hash || !j.hash || other.hash === j.hash) return true;
    const hash = this.hashOf(e);
    return hash === null || hash !== other.hash;
  }

  /** The sha256 of a file the scan saw, if it is still that file and readable; else null. */
  private hashOf(e: LocalEntry): string | null {
    let fd: number | undefined;
    try {
      fd = this.local.confined.openFile(e.path, e);
      return hashFdSync(fd, e.size);
    } catch {
      return null;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
}
