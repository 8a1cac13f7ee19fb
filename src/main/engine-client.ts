import type { AppError } from '../shared/app-api';
import type { OthersEvent } from '../shared/others-activity';
import type { PushMessage } from './backend/backend';
import type {
  CopyLinkResult,
  FromHost,
  HostInit,
  OpenFileResult,
  Port,
  ToHost,
} from './host/protocol';

type CallResult = { ok: true; result: unknown } | { ok: false; error: AppError };

/** Main's side of safeStorage: what answers the host's cipher questions. */
export interface MainCipher {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(data: Buffer): string;
}

export interface EngineEvents {
  push(push: PushMessage): void;
  othersActivity(events: OthersEvent[]): void;
  openExternal(url: string): void;
  /**
   * Opens a path with its app, or shows it in its folder (`reveal`); answers the system's
   * reason when it could not (Electron's `shell.openPath` says it), else null.
   */
  openPath(path: string, reveal: boolean): Promise<string | null>;
  /** The host ended without being asked to (a crash): `code` is its exit status. */
  exited(code: number): void;
}

interface EnginePort extends Port<FromHost, ToHost> {
  onExit(listener: (code: number) => void): void;
  kill(): void;
}

const gone: AppError = {
  kind: 'internal',
  message: 'The sync engine stopped. Restart Workspace Sync.',
};

/**
 * Main's handle on the engine host: calls and their replies by id, the host's pushes to the
 * listeners, its cipher questions answered with safeStorage, and a stop that waits for the
 * engines to finish their step.
 */
export class EngineClient {
  private next = 1;
  private readonly calls = new Map<number, (r: CallResult) => void>();
  private readonly links = new Map<number, (r: CopyLinkResult) => void>();
  private readonly opens = new Map<number, (r: OpenFileResult) => void>();
  private readonly ready: Promise<void>;
  private stopped: Promise<void> | null = null;
  private alive = true;
  private onStopped: (() => void) | null = null;

  constructor(
    private readonly port: EnginePort,
    init: HostInit,
    private readonly events: EngineEvents,
    private readonly cipher: MainCipher | null,
  ) {
    let settle!: { ok: () => void; fail: (e: Error) => void };
    this.ready = new Promise<void>((ok, fail) => (settle = { ok, fail }));
    // A failed start is reported by the calls that wait on it.
    this.ready.catch(() => undefined);
    port.onMessage((m) => this.receive(m, settle));
    port.onExit((code) => {
      this.alive = false;
      settle.fail(new Error(`The sync engine exited (${code}).`));
      for (const resolve of this.calls.values()) resolve({ ok: false, error: gone });
      this.calls.clear();
      for (const resolve of this.links.values()) resolve({ ok: false, message: gone.message });
      this.links.clear();
      for (const resolve of this.opens.values()) resolve({ ok: false, message: gone.message });
      this.opens.clear();
      if (this.onStopped) this.onStopped();
      else events.exited(code);
    });
    port.post({ type: 'init', init });
  }

  whenReady(): Promise<void> {
    return this.ready;
  }

  call(method: string, params: unknown): Promise<CallResult> {
    if (!this.alive) return Promise.resolve({ ok: false, error: gone });
    const id = this.next++;
    return new Promise((resolve) => {
      this.calls.set(id, resolve);
      this.port.post({ type: 'call', id, method, params });
    });
  }

  copyLink(path: string): Promise<CopyLinkResult> {
    if (!this.alive) return Promise.resolve({ ok: false, message: gone.message });
    const id = this.next++;
    return new Promise((resolve) => {
      this.links.set(id, resolve);
      this.port.post({ type: 'copy-link', id, path });
    });
  }

  /** A placeholder's `--open`: the host downloads the file, then has main's shell open it. */
  openFile(path: string): Promise<OpenFileResult> {
    if (!this.alive) return Promise.resolve({ ok: false, message: gone.message });
    const id = this.next++;
    return new Promise((resolve) => {
      this.opens.set(id, resolve);
      this.port.post({ type: 'open-file', id, path });
    });
  }

  /** A files-on-demand menu entry (`--files ACTION PATH…`): done by the host's engines. */
  filesOnDemand(
    op: Extract<ToHost, { type: 'files-on-demand' }>['op'],
    paths: string[],
  ): Promise<OpenFileResult> {
    if (!this.alive) return Promise.resolve({ ok: false, message: gone.message });
    const id = this.next++;
    return new Promise((resolve) => {
      this.opens.set(id, resolve);
      this.port.post({ type: 'files-on-demand', id, op, paths });
    });
  }

  /**
   * Asks the host to stop its engines (each finishes or journals its current step) and waits
   * for it, `timeoutMs` at most; then the process is killed: what was not journaled is redone
   * from the journal at the next start.
   */
  stop(timeoutMs: number): Promise<void> {
    this.stopped ??= new Promise<void>((resolve) => {
      if (!this.alive) return resolve();
      const timer = setTimeout(() => {
        this.port.kill();
        resolve();
      }, timeoutMs);
      this.onStopped = () => {
        clearTimeout(timer);
        resolve();
      };
      this.port.post({ type: 'stop' });
    });
    return this.stopped;
  }

  private receive(m: FromHost, settle: { ok: () => void; fail: (e: Error) => void }): void {
    switch (m.type) {
      case 'ready':
        return settle.ok();
      case 'failed':
        return settle.fail(new Error(m.message));
      case 'reply': {
        const resolve = this.calls.get(m.id);
        this.calls.delete(m.id);
        return resolve?.(m.result);
      }
      case 'copy-link-reply': {
        const resolve = this.links.get(m.id);
        this.links.delete(m.id);
        return resolve?.(m.result);
      }
      case 'open-file-reply':
      case 'files-on-demand-reply': {
        const resolve = this.opens.get(m.id);
        this.opens.delete(m.id);
        return resolve?.(m.result);
      }
      case 'push':
        return this.events.push(m.push);
      case 'others-activity':
        return this.events.othersActivity(m.events);
      case 'open-external':
        return this.events.openExternal(m.url);
      case 'open-path':
        return void this.events.openPath(m.path, m.reveal === true).then(
          (error) => this.port.post({ type: 'open-path-reply', id: m.id, error }),
          (err: unknown) =>
            this.port.post({ type: 'open-path-reply', id: m.id, error: String(err) }),
        );
      case 'cipher':
        return this.answerCipher(m);
      case 'stopped':
        return;
    }
  }

  private answerCipher(m: Extract<FromHost, { type: 'cipher' }>): void {
    const reply = (value: string | Uint8Array | boolean) =>
      this.port.post({ type: 'cipher-reply', id: m.id, ok: true, value });
    try {
      const c = this.cipher;
      if (m.op === 'available') return reply(c?.isEncryptionAvailable() ?? false);
      if (!c) throw new Error('No encryption is available on this computer.');
      if (m.op === 'encrypt') return reply(new Uint8Array(c.encryptString(m.plain)));
      return reply(c.decryptString(Buffer.from(m.data)));
    } catch (err) {
      this.port.post({
        type: 'cipher-reply',
        id: m.id,
        ok: false,
        message: err instanceof Error ? err.message : String(err),
      });
    }
  }
}
