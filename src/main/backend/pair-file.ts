import path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../core/logger';
import { readStateFile, writeStateFile } from '../state/json-file';

/** What is remembered of a pair between runs (`<config>/pairs.json`). */
const PairRecord = z.object({
  id: z.string(),
  accountId: z.string(),
  workspaceId: z.number(),
  workspaceName: z.string(),
  dir: z.string(),
  paused: z.boolean(),
});
export type PairRecord = z.infer<typeof PairRecord>;

const isRecord = (v: unknown): v is PairRecord => PairRecord.safeParse(v).success;

/**
 * pairs.json: the pairs remembered between runs. Apart from the running pairs (pairs.ts) because
 * it is a file format: what is read back is checked, and each write replaces the file whole.
 */
export class PairFile {
  private saving: Promise<void> = Promise.resolve();

  constructor(
    configDir: string,
    private readonly log: Logger,
  ) {
    this.file = path.join(configDir, 'pairs.json');
  }

  private readonly file: string;

  /** The remembered pairs; none when the file is missing or not JSON (logged). */
  async load(): Promise<PairRecord[]> {
    const text = await readStateFile(this.file);
    if (text === null) return [];
    try {
      const parsed = JSON.parse(text) as { pairs?: unknown };
      return Array.isArray(parsed.pairs) ? parsed.pairs.filter(isRecord) : [];
    } catch {
      this.log.error('pairs.json is not valid JSON: no pair restored', { file: this.file });
      return [];
    }
  }

  /** Writes the list atomically (a temporary file, then a rename), one write at a time. */
  save(records: PairRecord[]): Promise<void> {
    const write = () => writeStateFile(this.file, { version: 1, pairs: records });
    this.saving = this.saving.then(write, write);
    return this.saving;
  }

  /** The last write done (or failed): nothing is left half-written at close. */
  settled(): Promise<void> {
    return this.saving.catch(() => undefined);
  }
}
