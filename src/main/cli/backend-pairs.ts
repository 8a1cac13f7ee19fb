import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { SyncPair, SyncPairStatus } from '../../shared/app-api';
import type { SyncEngine } from '../sync/engine';
import { openSync, type OpenSync } from '../sync/open';
import type { Logger } from '../sync/ports';
import type { SignedIn } from './backend-accounts';
import { fail } from './backend-errors';
import { pairStatusOf } from './backend-map';

/** Status pushes per pair: at most one per this many ms (~4 a second), the latest state wins. */
export const STATUS_PUSH_MS = 250;

interface Running {
  info: Omit<SyncPair, 'status' | 'paused'>;
  paused: boolean;
  engine: SyncEngine;
  opened: OpenSync;
  controller: AbortController;
  running: Promise<void>;
  lastPush: number;
  timer: NodeJS.Timeout | null;
}

const inside = (a: string, b: string) => a === b || a.startsWith(b + path.sep);

/**
 * The sync pairs of this run: each a SyncEngine in continuous mode, as `workspace-sync sync`
 * runs it. Removing a pair stops its engine and closes its journal; the local folder is left
 * exactly as it is.
 */
export class Pairs {
  private readonly pairs = new Map<string, Running>();

  constructor(
    private readonly opts: {
      stateDir: string;
      log: Logger;
      push: (pairId: string, status: SyncPairStatus) => void;
      pollIntervalMs?: number;
    },
  ) {}

  async add(signed: SignedIn, workspaceId: number, dir: string): Promise<SyncPair> {
    if (!path.isAbsolute(dir))
      fail('invalid', 'Choose the local folder by its full path (for example /home/ann/Q3).');
    const root = path.resolve(dir);
    for (const p of this.pairs.values()) {
      if (inside(root, p.info.dir) || inside(p.info.dir, root)) {
        fail(
          'conflict',
          `${p.info.dir} already syncs "${p.info.workspaceName}": choose a folder outside it.`,
        );
      }
    }
    const workspace = await signed.client.getWorkspace(workspaceId);
    const opened = await openSync({
      client: signed.engineClient(),
      server: signed.server,
      user: signed.email,
      workspaceId,
      dir: root,
      stateDir: this.opts.stateDir,
      log: this.opts.log,
      pollIntervalMs: this.opts.pollIntervalMs,
    });
    const id = randomBytes(8).toString('hex');
    const controller = new AbortController();
    const { engine } = opened;
    const pair: Running = {
      info: {
        id,
        accountId: signed.info.id,
        workspaceId,
        workspaceName: workspace.name,
        dir: root,
      },
      paused: false,
      engine,
      opened,
      controller,
      running: Promise.resolve(),
      lastPush: 0,
      timer: null,
    };
    engine.on('status', () => this.schedule(pair));
    pair.running = engine.run(controller.signal).catch((err: unknown) => {
      // A fatal stop (signed out, folder gone) is in the status as needs-attention.
      this.opts.log.error('sync pair stopped', { pair: id, err });
    });
    this.pairs.set(id, pair);
    this.opts.log.info('sync pair added', { pair: id, workspaceId, dir: root });
    return this.view(pair);
  }

  list(): SyncPair[] {
    return [...this.pairs.values()].map((p) => this.view(p));
  }

  pause(id: string): void {
    const p = this.get(id);
    p.paused = true;
    p.engine.pause();
  }

  resume(id: string): void {
    const p = this.get(id);
    p.paused = false;
    p.engine.resume();
  }

  async remove(id: string): Promise<void> {
    const p = this.get(id);
    this.pairs.delete(id);
    p.controller.abort();
    await p.running;
    if (p.timer) clearTimeout(p.timer);
    await p.opened.close();
    this.opts.log.info('sync pair removed', { pair: id });
  }

  async removeForAccount(accountId: string): Promise<void> {
    for (const p of [...this.pairs.values()])
      if (p.info.accountId === accountId) await this.remove(p.info.id);
  }

  async close(): Promise<void> {
    for (const id of [...this.pairs.keys()]) await this.remove(id);
  }

  private get(id: string): Running {
    const p = this.pairs.get(id);
    return p ?? fail('not-found', 'This sync pair no longer exists.');
  }

  private view(p: Running): SyncPair {
    return { ...p.info, paused: p.paused, status: pairStatusOf(p.engine.status()) };
  }

  /** Pushes the latest status now, or once the throttle window has passed. */
  private schedule(p: Running): void {
    if (p.timer) return;
    const wait = p.lastPush + STATUS_PUSH_MS - Date.now();
    const send = () => {
      p.timer = null;
      p.lastPush = Date.now();
      if (this.pairs.get(p.info.id) === p)
        this.opts.push(p.info.id, pairStatusOf(p.engine.status()));
    };
    if (wait <= 0) send();
    else p.timer = setTimeout(send, wait);
  }
}
