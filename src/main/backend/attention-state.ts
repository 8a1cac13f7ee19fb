import type { SyncPairStatus } from '../../shared/app-api';
import { englishOf, type Words } from '../../shared/i18n';

/**
 * A pair that is up to date but has conflicts to choose for or problems not dismissed needs the
 * person: its state says so (the card, the tray), not a green "Up to date" beside them. The
 * engine's own state is left alone (the CLI's `sync` ends idle, as before).
 */
export function withAttention(status: SyncPairStatus): SyncPairStatus {
  if (status.state !== 'idle') return status;
  const conflicts = status.conflicts.filter((c) => c.copy !== undefined).length;
  const problems = status.problems.filter((p) => !p.dismissed).length;
  if (conflicts + problems === 0) return status;
  const words: Words =
    problems === 0
      ? { key: 'engine.attentionConflicts', params: { n: conflicts } }
      : conflicts === 0
        ? { key: 'engine.attentionProblems', params: { n: problems } }
        : { key: 'engine.attentionBoth', params: { conflicts, problems } };
  return { ...status, state: 'needs-attention', message: englishOf(words), words };
}
