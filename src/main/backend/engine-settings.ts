import type { SyncEngine } from '../engine';
import type { Language } from '../../shared/i18n';

/** What every engine is given from the settings; `Pairs.configure` changes it for all of them. */
export interface EngineSettings {
  /** The remote poll; undefined for the engine's default. */
  pollIntervalMs?: number;
  /** Gitignore lines for every pair, before each folder's own ignore file. */
  ignorePatterns: readonly string[];
  /** The words of conflict copies (the app's language); undefined for the engine's default. */
  language?: Language;
}

const samePatterns = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((line, i) => line === b[i]);

/**
 * What changed from `before` to `now`, applied to one running engine: only what changed, since a
 * new pattern list rescans its folder.
 */
export function applySettings(
  engine: SyncEngine,
  now: EngineSettings,
  before: EngineSettings,
): void {
  if (now.pollIntervalMs !== undefined && now.pollIntervalMs !== before.pollIntervalMs)
    engine.setPollInterval(now.pollIntervalMs);
  if (!samePatterns(now.ignorePatterns, before.ignorePatterns))
    engine.setExtraIgnore(now.ignorePatterns);
  if (now.language !== undefined && now.language !== before.language)
    engine.setLanguage(now.language);
}
