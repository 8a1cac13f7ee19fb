// Files on demand: a download a person asked for (`files open|download`), done without a round
// (docs/SYNC.md, Files on demand). A round reads the feed and scans the whole folder: at 10,000
// entries that is most of an open's time, for nothing the person asked. So when the asked files
// are the plain case (each a placeholder untouched here, the item neither moved, renamed nor
// deleted there: only its content may have changed), this one-way pass brings just them down:
// detect (their journal rows, the service's facts of each, a request per file) → plan (the down
// side's planner) → execute (its executor: temp file in the cache, hash checked, renamed into
// place, the placeholder removed) → record (the executor's rows). Anything else is the round's
// to decide: the caller runs one, as before.
import { ApiError } from '../../api/errors';
import type { FileItem } from '../../api/schemas';
import type { Journal, JournalItem } from '../../journal/journal';
import { Executor } from '../down/execute';
import { planChanges } from '../down/plan';
import type { Plan } from '../down/plan-types';
import { LocalRoot } from '../local';
import type { VolumeProfile } from '../names';
import { placeholderOf } from '../placeholder';
import { emptyView, fromFile } from '../remote';
import type { EngineState } from './engine-state';
import { finishFrees } from './free-files';
import { itemAt } from './on-demand-actions';
import { NO_DOWNLOAD_ROLES } from './remote-pass';
import { checkRoot } from './root';

/** `done`: every asked file is here; `round`: a round must decide (nothing of it was done). */
export type FetchAskedOutcome = 'done' | 'round';

/** Beyond this many files a request each costs more than the round's feed read and scan. */
const MAX_FILES = 64;

/**
 * Brings the online files of `paths` (relative to the root, local names; a placeholder's path
 * names its file; a folder its files below) down now. Run between rounds (the inbox's action),
 * never during one: it writes the same disk and journal.
 */
export async function fetchAsked(
  s: EngineState,
  paths: readonly string[],
  signal?: AbortSignal,
): Promise<FetchAskedOutcome> {
  const { journal, root } = s.opts;
  const why = (reason: string): FetchAskedOutcome => {
    s.log.info('asked download needs a round', { reason });
    return 'round';
  };
  // Changes a crash left unfinished, or a role that may not download: the round's to resolve.
  if (journal.outbox.open().length > 0) return why('an open intent');
  if (NO_DOWNLOAD_ROLES.has(journal.meta.get('role') ?? '')) return why('the role');
  const rootId = Number(journal.meta.get('root_folder_id') ?? NaN);
  if (!Number.isInteger(rootId)) return why('no root folder yet');
  const profile = s.passes?.ctx.profile ?? s.opts.profile;
  if (!profile) return why('the volume not probed yet');
  const asked = onlineFilesOf(journal, paths);
  if (asked === null) return why('a path the journal does not know');
  if (asked.length > MAX_FILES) return why('many files');
  // The sync folder replaced or gone is said as the round says it (SyncFatalError).
  await checkRoot(journal, root);
  const local = s.passes?.ctx.local ?? new LocalRoot(root);
  local.language = s.language;
  if (asked.length === 0) {
    // Here in full already, as far as the journal knows; one missing here is the round's.
    return paths.every((rel) => isHere(local, itemAt(journal, rel)!)) ? 'done' : why('missing');
  }
  await finishFrees({ journal, local, trash: s.opts.trash, log: s.log });
  for (const j of asked) {
    if (!untouchedHere(local, j)) return why(`${j.localPath}: changed here`);
  }
  const seen = await factsThere(s, asked);
  for (const j of asked) {
    const f = seen.get(j.remoteId);
    if (!f || !sameTherePlace(journal, rootId, j, f)) return why(`${j.localPath}: changed there`);
  }
  return download(s, { local, profile, rootId }, asked, seen, signal);
}

/** Plan and execute; the records of what did not come are put back for the round. */
async function download(
  s: EngineState,
  { local, profile, rootId }: { local: LocalRoot; profile: VolumeProfile; rootId: number },
  asked: readonly JournalItem[],
  seen: ReadonlyMap<number, FileItem>,
  signal?: AbortSignal,
): Promise<FetchAskedOutcome> {
  const { journal } = s.opts;
  // The planner's sign that an online file comes down (on-demand-actions.ts `download`).
  journal.transaction(() => {
    for (const j of asked) journal.items.upsert({ ...j, remoteUpdatedAt: null });
  });
  const putBack = (reason: string): FetchAskedOutcome => {
    journal.transaction(() => {
      for (const j of asked) {
        const now = journal.items.get(j.remoteId);
        if (now?.state === 'online' && now.remoteUpdatedAt === null) journal.items.upsert(j);
      }
    });
    s.log.info('asked download needs a round', { reason });
    return 'round';
  };
  const view = emptyView(rootId, false);
  for (const f of seen.values()) view.items.set(f.id, fromFile(f));
  const none = new Set<number>();
  const plan = planChanges(view, journal, {
    profile,
    retryNotPermitted: false,
    mayDownload: true,
    deletedHere: none,
  });
  if (!onlyDownloads(plan, asked)) return putBack('the plan is more than the downloads');
  const executor = new Executor({
    client: s.opts.client,
    journal,
    local,
    trash: s.opts.trash,
    log: s.log,
    concurrency: s.opts.concurrency ?? 8,
    signal,
    events: s.status.progressEvents(s.pass.refusals, 'down'),
    deletedHere: none,
  });
  let result;
  try {
    result = await journal.batch(() => executor.run(plan));
  } catch (err) {
    // Failed as a round fails (the service out of reach): said as that, the asked left as asked.
    putBack('the download failed');
    throw err;
  }
  const left = asked.filter((j) => journal.items.get(j.remoteId)?.state !== 'synced');
  if (left.length > 0 || result.recheck || result.rescan.size > 0 || result.conflicts > 0) {
    // A problem (its round tries again), a race with the disk: the round looks at all of it.
    return putBack(`${left[0]?.localPath ?? 'the disk'}: not placed as planned`);
  }
  s.log.info('asked files downloaded without a round', { files: asked.length });
  return 'done';
}

/** The online files of `paths`, each once; null when a path is no item of the journal's. */
function onlineFilesOf(journal: Journal, paths: readonly string[]): JournalItem[] | null {
  const out = new Map<number, JournalItem>();
  for (const rel of paths) {
    const j = itemAt(journal, rel);
    if (!j) return null;
    const files =
      j.kind === 'file'
        ? [j]
        : journal.items.descendants(j.localPath).filter((d) => d.kind === 'file');
    for (const f of files) if (f.state === 'online') out.set(f.remoteId, f);
  }
  return [...out.values()];
}

function isHere(local: LocalRoot, j: JournalItem): boolean {
  try {
    return local.stat(j.localPath) !== undefined;
  } catch {
    return false;
  }
}

/**
 * The placeholder as written (its size and time as recorded) and nothing at the file's name:
 * touched, written into, moved or deleted here, or a file put there, is the local pass's.
 */
function untouchedHere(local: LocalRoot, j: JournalItem): boolean {
  try {
    const st = local.stat(placeholderOf(j.localPath));
    if (!st?.isFile() || st.size !== j.size || st.mtimeMs !== j.mtimeMs) return false;
    return local.stat(j.localPath) === undefined;
  } catch {
    // Not to be looked at here (no permission, a path too long): the round says why.
    return false;
  }
}

/** The service's facts of each file, a request each, 8 at a time; a file gone there is absent. */
async function factsThere(
  s: EngineState,
  asked: readonly JournalItem[],
): Promise<Map<number, FileItem>> {
  const seen = new Map<number, FileItem>();
  let next = 0;
  const worker = async () => {
    while (next < asked.length) {
      const id = asked[next++]!.remoteId;
      try {
        seen.set(id, await s.opts.client.getFile(id));
      } catch (err) {
        if (!(err instanceof ApiError && err.kind === 'not-found')) throw err;
      }
    }
  };
  const workers = Math.min(s.opts.concurrency ?? 8, asked.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return seen;
}

/**
 * The file has the name and the folders there that the journal knows (ancestors by id, root
 * first): not renamed, moved, or in a folder moved. A folder renamed there is not seen here; the
 * round renames it, the file in it, as it would a downloaded one.
 */
function sameTherePlace(journal: Journal, rootId: number, j: JournalItem, f: FileItem): boolean {
  if (f.id !== j.remoteId || f.filename !== j.remoteName) return false;
  const chain: number[] = [];
  for (let id = j.remoteParentId; id !== rootId;) {
    const folder = journal.items.get(id);
    if (folder?.kind !== 'folder' || chain.length > 4096) return false;
    chain.unshift(id);
    id = folder.remoteParentId;
  }
  chain.unshift(rootId);
  const there = f.ancestor_ids ?? [];
  return there.length === chain.length && there.every((id, i) => id === chain[i]);
}

/** The plan is the asked files' downloads at their recorded places, and nothing else. */
function onlyDownloads(plan: Plan, asked: readonly JournalItem[]): boolean {
  if (plan.structure.length > 0 || plan.trash.length > 0 || plan.archives.length > 0) return false;
  if (plan.refused.length > 0 || (plan.placeholders?.length ?? 0) > 0) return false;
  if (plan.downloads.length !== asked.length) return false;
  const at = new Map(asked.map((j) => [j.remoteId, j.localPath]));
  return plan.downloads.every((p) => at.get(p.item.id) === p.path);
}
