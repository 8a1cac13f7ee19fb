import type { FromHost, ToHost } from './protocol';

type CipherReply = Extract<ToHost, { type: 'cipher-reply' }>;

/**
 * Electron's safeStorage lives in the main process only; the account store runs here, so its
 * cipher is a proxy that asks main over the channel and waits for the answer.
 */
export class CipherProxy {
  private next = 1;
  private readonly waiting = new Map<number, (reply: CipherReply) => void>();

  constructor(private readonly post: (message: FromHost) => void) {}

  isAvailable(): Promise<boolean> {
    return this.ask({ op: 'available' }, (v) => v === true);
  }

  encrypt(plain: string): Promise<Buffer> {
    return this.ask({ op: 'encrypt', plain }, (v) => {
      if (typeof v === 'string' || typeof v === 'boolean') throw new Error('bad cipher reply');
      return Buffer.from(v);
    });
  }

  decrypt(data: Buffer): Promise<string> {
    return this.ask({ op: 'decrypt', data: new Uint8Array(data) }, (v) => {
      if (typeof v !== 'string') throw new Error('bad cipher reply');
      return v;
    });
  }

  /** Main's answer to one of our questions. */
  settle(reply: CipherReply): void {
    const resolve = this.waiting.get(reply.id);
    this.waiting.delete(reply.id);
    resolve?.(reply);
  }

  private ask<T>(
    question:
      { op: 'available' } | { op: 'encrypt'; plain: string } | { op: 'decrypt'; data: Uint8Array },
    read: (value: string | Uint8Array | boolean) => T,
  ): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, (reply) => {
        if (!reply.ok) reject(new Error(reply.message));
        else {
          try {
            resolve(read(reply.value));
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        }
      });
      this.post({ type: 'cipher', id, ...question });
    });
  }
}
