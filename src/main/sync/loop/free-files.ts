// Freeing files (docs/SYNC.md, Files on demand): many at once, and safe against a crash midway.
// A batch's files are moved into one box in the holding place (named by their service ids), their
// placeholders written, the batch recorded online in one transaction, and only then handed to the
// trash. A box left by a crash is finished at the next start (`finishFrees`): a file recorded
// online goes on to the trash, any other is put back whole. The box says which step was reached,
// the journal the rest; nothing is ever judged deleted for a file that waits in a box.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { LANGUAGES } from '../../../shared/i18n';
import type { Journal, JournalItem } from '../../journal/journal';
import { hashFile, type LocalRoot } from '../local';
import { MOVING_DIR } from '../paths';
import { placeholderOf, placeholderText, writePlaceholder } from '../placeholder';
import type { Logger, Trash } from '../ports';

/** Files freed per box and per journal transaction. */
const BATCH = 500;
/** A box of files being freed: `free-b` and a random tag (an earlier version's: `free-<id>`). */
const BOX_PREFIX = 'free-';

export interface FreeContext {
  journal: Journal;
  local: LocalRoot;
  trash: Trash;
  log: Logger;
  /**
   * Freeing to make room on a nearly full disk (auto-free.ts): a file is freed only when its
   * bytes, read now, are the synced version's, and its copy is then removed, not moved to the
   * trash (a trash on the same disk would free nothing).
   */
  release?: boolean;
}

/** What became of the files asked to be freed, by local path. */
export interface FreeOutcome {
  freed: string[];
  /** Changed here, or something of it still on its way to the service. */
  unsent: string[];
  /** A file of the placeholder's name is there (someone's: never written over). */
  inTheWay: string[];
  /** Failed on the disk (left whole where it was), with the first such error. */
  failed: string[];
  error?: unknown;
}

/**
 * Frees `files` (online ones are skipped): only those whose bytes here are the synced version's
 * and of which nothing waits to be sent. Each goes to the trash (never deleted), its placeholder
 * takes its place.
 */
export async function freeFiles(
  ctx: FreeContext,
  files: readonly JournalItem[],
): Promise<FreeOutcome> {
  const out: FreeOutcome = { freed: [], unsent: [], inTheWay: [], failed: [] };
  await finishFrees(ctx);
  const sending = waitingToBeSent(ctx.journal);
  const todo = files.filter((j) => j.state !== 'online');
  // Folders opened once for the whole run, not once per file (confined.ts).
  ctx.local.newPass();
  try {
    for (let i = 0; i < todo.length; i += BATCH) {
      await freeBatch(ctx, todo.slice(i, i + BATCH), sending, out);
    }
  } finally {
    ctx.local.endPass();
  }
  return out;
}

/** The ids and paths that an open intent names: something of them is on its way to the service. */
function waitingToBeSent(journal: Journal): { ids: Set<unknown>; paths: Set<unknown> } {
  const ids = new Set<unknown>();
  const paths = new Set<unknown>();
  for (const i of journal.outbox.open()) {
    const p = i.payload as { id?: unknown; path?: unknown };
    ids.add(p.id);
    paths.add(p.path);
  }
  return { ids, paths };
}

async function mayFree(
  ctx: FreeContext,
  j: JournalItem,
  sending: ReturnType<typeof waitingToBeSent>,
): Promise<'yes' | 'unsent' | 'in-the-way'> {
  const { local } = ctx;
  if (j.state !== 'synced' || j.remoteUpdatedAt === null || j.remoteSize === null) return 'unsent';
  if (sending.ids.has(j.remoteId) || sending.paths.has(j.localPath)) return 'unsent';
  const st = local.stat(j.localPath);
  if (!st?.isFile() || !(await local.unchanged(j, st))) return 'unsent';
  if (ctx.release && (st.size !== j.size || (await hashFile(local.abs(j.localPath))) !== j.hash)) {
    return 'unsent';
  }
  if (local.stat(placeholderOf(j.localPath))) return 'in-the-way';
  return 'yes';
}

interface Staged {
  was: JournalItem;
  now: JournalItem;
  at: string;
}

async function freeBatch(
  ctx: FreeContext,
  chunk: readonly JournalItem[],
  sending: ReturnType<typeof waitingToBeSent>,
  out: FreeOutcome,
): Promise<void> {
  const { journal, local } = ctx;
  const box = `${MOVING_DIR}/${BOX_PREFIX}b${randomBytes(6).toString('hex')}`;
  mkdirSync(local.abs(box), { recursive: true });
  const staged: Staged[] = [];
  try {
    for (const j of chunk) {
      const may = await mayFree(ctx, j, sending);
      if (may === 'unsent') out.unsent.push(j.localPath);
      else if (may === 'in-the-way') out.inTheWay.push(j.localPath);
      else {
        try {
          staged.push(stage(local, j, `${box}/${j.remoteId}`));
        } catch (err) {
          // One file that cannot be moved (a swapped folder, a full disk) is its own failure.
          out.failed.push(j.localPath);
          out.error ??= err;
        }
      }
    }
    // One transaction for the batch: from here the files are freed, the trash finishes it.
    journal.transaction(() => {
      for (const s of staged) journal.items.upsert(s.now);
    });
    await toTrash(ctx, staged, out);
  } finally {
    removeBox(local, box);
  }
}

/**
 * Moves the file into the box (through folders opened without following links) and writes its
 * placeholder (atomically: written aside, then renamed into place). A failure puts it back.
 */
function stage(local: LocalRoot, j: JournalItem, at: string): Staged {
  local.confined.rename(j.localPath, at);
  try {
    const facts = { name: j.remoteName, size: j.remoteSize!, updatedAt: j.remoteUpdatedAt! };
    const written = writePlaceholder(local, j.localPath, facts, local.language);
    const now: JournalItem = {
      ...j,
      dev: null,
      ino: null,
      size: written.st.size,
      mtimeMs: written.st.mtimeMs,
      hash: written.hash,
      state: 'online',
    };
    return { was: j, now, at };
  } catch (err) {
    local.confined.rename(at, j.localPath);
    throw err;
  }
}

/**
 * Hands the staged files to the trash. Once the trash refuses one, it and the rest are put back
 * whole: recorded as before first, so that a crash meanwhile leaves a box `finishFrees` puts back.
 */
async function toTrash(ctx: FreeContext, staged: readonly Staged[], out: FreeOutcome) {
  const { local, journal, log } = ctx;
  let i = 0;
  try {
    for (; i < staged.length; i++) {
      const s = staged[i]!;
      if (ctx.release) rmSync(local.abs(s.at));
      else await ctx.trash.put(local.abs(s.at), s.was.localPath);
      out.freed.push(s.was.localPath);
      const why = ctx.release ? 'to make room on a nearly full disk' : 'asked';
      log.info('freed a file: online only now', { path: s.was.localPath, why });
    }
  } catch (err) {
    const back = staged.slice(i);
    journal.transaction(() => {
      for (const s of back) journal.items.upsert(s.was);
    });
    for (const s of back) {
      rmSync(local.abs(placeholderOf(s.was.localPath)), { force: true });
      local.confined.rename(s.at, s.was.localPath);
      out.failed.push(s.was.localPath);
    }
    out.error ??= err;
  }
}

function removeBox(local: LocalRoot, box: string): void {
  try {
    rmdirSync(local.abs(box));
  } catch {
    // Not empty (a file the trash refused and that could not be put back): it stays, and the
    // next start finishes it (finishFrees).
  }
}

/**
 * Boxes a crash (or a refusal) left: each file recorded online goes on to the trash; any other is
 * put back whole where it was (its placeholder, if ours, removed), or to the trash when its place
 * is taken meanwhile. Nothing in a box is ever deleted.
 */
export async function finishFrees(ctx: FreeContext): Promise<void> {
  const { local } = ctx;
  let boxes: string[];
  try {
    boxes = readdirSync(local.abs(MOVING_DIR)).filter((n) => n.startsWith(BOX_PREFIX));
  } catch {
    return;
  }
  for (const name of boxes) {
    const box = `${MOVING_DIR}/${name}`;
    let entries: string[];
    try {
      entries = readdirSync(local.abs(box));
    } catch {
      continue;
    }
    // An earlier version's box held one file under its own name: `free-<id>/<name>`.
    const boxId = /^free-(\d+)$/.exec(name)?.[1];
    for (const e of entries) {
      await finishOne(ctx, `${box}/${e}`, boxId ?? e, e);
    }
    removeBox(local, box);
  }
}

async function finishOne(
  ctx: FreeContext,
  at: string,
  idText: string,
  name: string,
): Promise<void> {
  const { journal, local, log } = ctx;
  const id = /^\d+$/.test(idText) ? Number(idText) : NaN;
  const j = Number.isSafeInteger(id) ? journal.items.get(id) : undefined;
  if (j?.kind === 'file' && j.state === 'online') {
    await ctx.trash.put(local.abs(at), j.localPath);
    log.info('finished freeing a file after an interruption', { path: j.localPath });
    return;
  }
  if (j?.kind === 'file' && j.state === 'synced') {
    removeOurPlaceholder(local, j);
    if (!local.stat(j.localPath)) {
      local.confined.rename(at, j.localPath);
      log.info('put back a file whose freeing was interrupted', { path: j.localPath });
      return;
    }
  }
  // Its place taken meanwhile, or no longer known: kept in the trash, never deleted.
  await ctx.trash.put(local.abs(at), j?.localPath ?? name);
}

/** Removes the placeholder written for `j` if it is still the text we write (any language). */
function removeOurPlaceholder(local: LocalRoot, j: JournalItem): void {
  if (j.remoteSize === null || j.remoteUpdatedAt === null) return;
  const abs = local.abs(placeholderOf(j.localPath));
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch {
    return;
  }
  const facts = { name: j.remoteName, size: j.remoteSize, updatedAt: j.remoteUpdatedAt };
  if (LANGUAGES.some((lang) => placeholderText(facts, lang) === text)) rmSync(abs);
}
