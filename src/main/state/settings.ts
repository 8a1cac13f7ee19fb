import path from 'node:path';
import {
  AppCallError,
  DEFAULT_SETTINGS,
  Settings,
  SettingsPatch,
  type SettingsPatch as Patch,
} from '../../shared/app-api';
import { patternProblem } from '../engine';
import { silentLogger, type Logger } from '../core/logger';
import { readStateFile, writeStateFile } from './json-file';

/** The file in the config directory, beside pairs.json. */
export const SETTINGS_FILE = 'settings.json';

/** Most ignore patterns the settings keep: a list a person reads, not a generated one. */
export const MAX_PATTERNS = 500;

const fields = Object.keys(Settings.shape) as (keyof Settings)[];

/**
 * The person's settings in `<config>/settings.json`, checked with the contract's schema. A file
 * edited by hand or written by another version never stops the app: each field that does not
 * fit falls back to its default, with a line in the log saying which. Written atomically and
 * readable by this user only (`json-file.ts`), one update at a time.
 *
 * Not a settings library: `conf` (the one that runs under plain Node) validates with JSON Schema
 * through ajv, a second schema of what the contract already declares with zod, and it either
 * throws on an invalid file or clears all of it; here one bad field costs only itself.
 */
export class SettingsStore {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly file: string,
    private readonly log: Logger,
  ) {}

  static inDir(dir: string, log: Logger = silentLogger): SettingsStore {
    return new SettingsStore(path.join(dir, SETTINGS_FILE), log);
  }

  /** The stored settings; the defaults for whatever is missing or invalid (never throws on content). */
  async load(): Promise<Settings> {
    let text: string | null;
    try {
      text = await readStateFile(this.file);
    } catch (err) {
      this.log.error('settings.json could not be read: using the defaults', { err });
      return defaults();
    }
    if (text === null) return defaults();
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      this.log.error('settings.json is not valid JSON: using the defaults', { file: this.file });
      return defaults();
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      this.log.error('settings.json does not hold an object: using the defaults', {
        file: this.file,
      });
      return defaults();
    }
    return this.fieldByField(raw as Record<string, unknown>);
  }

  /**
   * Changes the fields `patch` names and stores the result; the patch is checked first and
   * refused whole ('invalid', naming what is wrong) when any of it is, so nothing half-applies.
   */
  update(patch: Patch): Promise<Settings> {
    const run = async () => {
      const checked = checkPatch(patch);
      const next: Settings = { ...(await this.load()), ...checked };
      await writeStateFile(this.file, { version: 1, ...next });
      this.log.info('settings changed', { fields: Object.keys(checked) });
      return next;
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private fieldByField(raw: Record<string, unknown>): Settings {
    const out = defaults();
    for (const key of Object.keys(raw)) {
      if (key !== 'version' && !fields.includes(key as keyof Settings))
        this.log.warn('settings.json: unknown setting ignored', { setting: key });
    }
    for (const key of fields) {
      if (!(key in raw)) continue;
      const parsed = Settings.shape[key].safeParse(raw[key]);
      if (!parsed.success) {
        this.log.warn('settings.json: invalid setting, the default is used', { setting: key });
        continue;
      }
      (out as Record<keyof Settings, unknown>)[key] = parsed.data;
    }
    const usable = out.ignorePatterns.filter((p) => patternProblem(p) === null);
    if (usable.length < out.ignorePatterns.length) {
      this.log.warn('settings.json: unusable ignore patterns left out', {
        count: out.ignorePatterns.length - usable.length,
      });
      out.ignorePatterns = usable;
    }
    return out;
  }
}

/** Refuses a patch: the window's 'invalid' error, with words a person can act on. */
function invalid(message: string): never {
  throw new AppCallError({ kind: 'invalid', message });
}

function defaults(): Settings {
  return structuredClone(DEFAULT_SETTINGS);
}

/** The patch as the store takes it, or an 'invalid' AppCallError a person can act on. */
function checkPatch(patch: unknown): Patch {
  const parsed = SettingsPatch.safeParse(patch);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : '';
    return invalid(`${where}${issue?.message ?? 'these are not settings'}.`);
  }
  const patterns = parsed.data.ignorePatterns;
  if (patterns) {
    if (patterns.length > MAX_PATTERNS)
      invalid(`Keep at most ${MAX_PATTERNS} ignore patterns (${patterns.length} given).`);
    for (const p of patterns) {
      const problem = patternProblem(p);
      if (problem) invalid(problem);
    }
  }
  return parsed.data;
}
