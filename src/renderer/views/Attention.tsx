import { useCallback, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SyncPair, SyncPairStatus } from '../../shared/app-api';
import { ErrorMessage } from '../components/ErrorMessage';
import { useApi } from '../context';
import { strings } from '../strings';
import { UndoNotice } from './UndoNotice';

type Conflict = SyncPairStatus['conflicts'][number];
type Problem = SyncPairStatus['problems'][number];

const nameOf = (rel: string) => rel.slice(rel.lastIndexOf('/') + 1);
const t = strings.attention;

/**
 * What needs the person in a pair's card: each conflict with its two files and the choices
 * (docs/SYNC.md, Conflicts), each problem with Retry and Dismiss. Every action goes through the
 * backend and its engine; an entry leaves when the pushed status no longer lists it.
 */
export function Attention({ pair }: { pair: SyncPair }) {
  const { status } = pair;
  const api = useApi();
  const queryClient = useQueryClient();
  // The last Keep mine or Keep theirs: what it moved to the trash, which Undo puts back. Here,
  // not in the conflict's row: the row leaves with the conflict.
  const [settled, setSettled] = useState<{
    keep: 'mine' | 'theirs';
    path: string;
    name: string;
  } | null>(null);
  const forget = useCallback(() => setSettled(null), []);
  const undo = async (path: string): Promise<string> => {
    // The newest record of that path of this folder: what the choice just moved there.
    const { items } = await api.call('trash.list', {});
    const entry = items.find((e) => e.root === pair.dir && e.relPath === path);
    if (!entry) throw new Error(strings.undo.notInTrash(nameOf(path)));
    const restored = await api.call('trash.restore', { id: entry.id });
    await queryClient.invalidateQueries({ queryKey: ['trash'] });
    return strings.undo.undone(restored.path);
  };
  const problems = status.problems.filter((p) => !p.dismissed);
  const dismissed = status.problems.length - problems.length;
  // A card says nothing of problems and conflicts it has none of: its state line says "Up to
  // date", and two empty sections made every card twice as tall.
  return (
    <>
      {settled && (
        <UndoNotice
          key={`${settled.keep}:${settled.path}`}
          text={(settled.keep === 'mine' ? strings.undo.keptMine : strings.undo.keptTheirs)(
            settled.name,
          )}
          undoLabel={strings.undo.undoLabel(nameOf(settled.path))}
          onUndo={() => undo(settled.path)}
          onDone={forget}
        />
      )}
      {problems.length > 0 && (
        <>
          <h3>{strings.status.problems}</h3>
          <ul className="issues attention-list">
            {problems.map((p) => (
              <ProblemRow key={p.key ?? `${p.path}-${p.at}`} pair={pair} problem={p} />
            ))}
          </ul>
        </>
      )}
      {dismissed > 0 && <p className="muted">{t.dismissedCount(dismissed)}</p>}
      {status.conflicts.length > 0 && (
        <>
          <h3>{strings.status.conflicts}</h3>
          <ul className="issues attention-list">
            {status.conflicts.map((c) =>
              c.id !== undefined && c.copy !== undefined ? (
                <ConflictRow key={c.id} pair={pair} conflict={c} onSettled={setSettled} />
              ) : (
                // A note: the conflict was settled by the engine, nothing is left to choose.
                <li key={`${c.path}-${c.at}`}>
                  <span className="path">{c.path}</span> — {strings.say(c.words, c.message)}
                </li>
              ),
            )}
          </ul>
        </>
      )}
    </>
  );
}

/** Open and Show in folder for a path the pair lists. */
function useOpenItem(pair: SyncPair) {
  const api = useApi();
  return useMutation({
    mutationFn: ({ path, how }: { path: string; how: 'open' | 'show' }) =>
      api.call('pairs.openItem', { pairId: pair.id, path, how }),
  });
}

function ConflictRow({
  pair,
  conflict,
  onSettled,
}: {
  pair: SyncPair;
  conflict: Conflict;
  /** A choice that moved a file to the trash (docs/SYNC.md, Conflicts): the one Undo puts back. */
  onSettled: (s: { keep: 'mine' | 'theirs'; path: string; name: string }) => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const open = useOpenItem(pair);
  const copy = conflict.copy!;
  const settle = useMutation({
    mutationFn: async (keep: 'mine' | 'theirs' | 'both') => {
      await api.call('pairs.settleConflict', { pairId: pair.id, conflictId: conflict.id!, keep });
      // Here, not in onSuccess: the pushed status may take this row away before the reply
      // comes, and the notice must not go with it. Keep mine sets aside the file it replaces;
      // Keep theirs, the copy.
      if (keep !== 'both')
        onSettled({
          keep,
          path: keep === 'mine' ? conflict.path : copy,
          name: nameOf(conflict.path),
        });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['pairs'] }),
  });

  const name = nameOf(conflict.path);
  const busy = settle.isPending;
  return (
    <li className="attention-item">
      <p>
        <span className="path">{conflict.path}</span> —{' '}
        {strings.say(conflict.words, conflict.message)}
      </p>
      <dl className="attention-files">
        <dt>{t.theirs}</dt>
        <dd>
          <span className="path">{nameOf(conflict.path)}</span>{' '}
          <button
            type="button"
            className="link-button"
            aria-label={t.openLabel(nameOf(conflict.path))}
            onClick={() => open.mutate({ path: conflict.path, how: 'open' })}
          >
            {t.open}
          </button>
        </dd>
        <dt>{t.mine}</dt>
        <dd>
          <span className="path">{nameOf(copy)}</span>{' '}
          <button
            type="button"
            className="link-button"
            aria-label={t.openLabel(nameOf(copy))}
            onClick={() => open.mutate({ path: copy, how: 'open' })}
          >
            {t.open}
          </button>{' '}
          <button
            type="button"
            className="link-button"
            aria-label={t.showLabel(nameOf(copy))}
            onClick={() => open.mutate({ path: copy, how: 'show' })}
          >
            {t.show}
          </button>
        </dd>
      </dl>
      <div className="actions">
        {(
          [
            ['mine', t.keepMine, t.keepMineLabel(name), t.keepMineHint],
            ['theirs', t.keepTheirs, t.keepTheirsLabel(name), t.keepTheirsHint],
            ['both', t.keepBoth, t.keepBothLabel(name), t.keepBothHint],
          ] as const
        ).map(([keep, text, label, hint]) => (
          <button
            key={keep}
            type="button"
            aria-label={label}
            title={hint}
            disabled={busy}
            onClick={() => settle.mutate(keep)}
          >
            {text}
          </button>
        ))}
      </div>
      {open.isError && <ErrorMessage error={open.error} />}
      {settle.isError && <ErrorMessage error={settle.error} />}
    </li>
  );
}

function ProblemRow({ pair, problem }: { pair: SyncPair; problem: Problem }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const open = useOpenItem(pair);
  const act = useMutation({
    mutationFn: (action: 'retry' | 'dismiss') =>
      api.call('pairs.problem', { pairId: pair.id, key: problem.key!, action }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['pairs'] }),
  });
  const name = problem.path === '' ? t.unnamed : nameOf(problem.path);
  // A name shown with U+FFFD for bytes that are not UTF-8 names no file: nothing to open.
  const openable = problem.path !== '' && !problem.path.includes('\uFFFD');
  return (
    <li className="attention-item">
      <p>
        {problem.path !== '' && <span className="path">{problem.path}</span>}
        {problem.path !== '' && ' — '}
        {strings.say(problem.words, problem.message)}
      </p>
      <div className="actions">
        {openable && (
          <>
            <button
              type="button"
              className="link-button"
              aria-label={t.openLabel(name)}
              onClick={() => open.mutate({ path: problem.path, how: 'open' })}
            >
              {t.open}
            </button>
            <button
              type="button"
              className="link-button"
              aria-label={t.showLabel(name)}
              onClick={() => open.mutate({ path: problem.path, how: 'show' })}
            >
              {t.show}
            </button>
          </>
        )}
        {problem.key !== undefined && (
          <>
            <button
              type="button"
              aria-label={t.retryLabel(name)}
              disabled={act.isPending}
              onClick={() => act.mutate('retry')}
            >
              {t.retry}
            </button>
            <button
              type="button"
              aria-label={t.dismissLabel(name)}
              disabled={act.isPending}
              onClick={() => act.mutate('dismiss')}
            >
              {t.dismiss}
            </button>
          </>
        )}
      </div>
      {open.isError && <ErrorMessage error={open.error} />}
      {act.isError && <ErrorMessage error={act.error} />}
    </li>
  );
}
