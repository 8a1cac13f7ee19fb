import { sha } from '../sync/harness';

/**
 * The reference model of what must survive: every content any side ever wrote (each write's bytes
 * are unique), and which of them a person deleted or overwrote on purpose. Whatever else happens
 * (conflicts, crashes, faults), a content not deleted on purpose must exist at the end on the
 * service, on a disk, or in a trash.
 */
export class Ledger {
  private readonly contents = new Map<string, { label: string; deleted: boolean }>();
  private counter = 0;

  /** New unique bytes of about `size`, remembered as written by `who`. */
  write(who: string, size: number): Buffer {
    const label = `${who}#${++this.counter}`;
    const head = `soak content ${label}\n`;
    const body = Buffer.alloc(Math.max(0, size - head.length), (label.length % 26) + 97);
    const data = Buffer.concat([Buffer.from(head), body]);
    this.contents.set(sha(data), { label, deleted: false });
    return data;
  }

  /** A person deleted or overwrote this content as they saw it: it may be gone at the end. */
  deleted(hash: string | undefined): void {
    const c = hash === undefined ? undefined : this.contents.get(hash);
    if (c) c.deleted = true;
  }

  get written(): number {
    return this.contents.size;
  }

  /** Contents that must still exist somewhere, by hash, with their labels. */
  mustSurvive(): Map<string, string> {
    const out = new Map<string, string>();
    for (const [hash, c] of this.contents) if (!c.deleted) out.set(hash, c.label);
    return out;
  }

  labelOf(hash: string): string | undefined {
    return this.contents.get(hash)?.label;
  }
}
