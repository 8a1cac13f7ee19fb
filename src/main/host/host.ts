import path from 'node:path';
import { AppBackend } from '../backend/backend';
import { SystemOpenRefused } from '../backend/open-failed';
import { keychainService, openAccountStore } from '../accounts/keychain';
import { shareLinkForPath } from '../links/link';
import { messageOf } from '../errors/user-error';
import { wordsOf } from '../../shared/i18n';
import { createFileLogger } from '../core/file-log';
import { CipherProxy } from './cipher-proxy';
import { OthersActivity } from './others-activity';
import type { CopyLinkResult, FromHost, HostInit, OpenFileResult, Port, ToHost } from './protocol';

/** How often others' activity is read for notifications. */
const OTHERS_POLL_MS = 15_000;

interface Running {
  backend: AppBackend;
  others: OthersActivity;
  close(): Promise<void>;
  copyLink(p: string): Promise<CopyLinkResult>;
  openFile(p: string): Promise<OpenFileResult>;
  onDemand(
    op: Extract<ToHost, { type: 'files-on-demand' }>['op'],
    paths: string[],
  ): Promise<OpenFileResult>;
}

/**
 * The engine host: the backend (accounts, engines, the window's API) in a process of its own,
 * so that a long scan or a slow disk never stalls the window or the tray. Main starts it with
 * `init`, relays the window's calls, and asks it to `stop` before quitting: the engines finish
 * or journal their current step, and the host says `stopped`.
 */
export function runHost(port: Port<ToHost, FromHost>, exit: (code: number) => void): void {
  const post = (m: FromHost) => port.post(m);
  const cipher = new CipherProxy(post);
  const opens = new MainOpens(post);
  let running: Promise<Running> | null = null;

  port.onMessage((message) => {
    switch (message.type) {
      case 'init':
        running ??= start(message.init, cipher, opens, post);
        running.then(
          () => post({ type: 'ready' }),
          (err: unknown) => {
            post({ type: 'failed', message: messageOf(err) });
            exit(1);
          },
        );
        return;
      case 'cipher-reply':
        cipher.settle(message);
        return;
      case 'open-path-reply':
        opens.settle(message.id, message.error);
        return;
      case 'call': {
        const { id, method, params } = message;
        void (async () => {
          try {
            const r = await whenRunning(running);
            post({ type: 'reply', id, result: await r.backend.call(method, params) });
          } catch (err) {
            const error = { kind: 'internal' as const, message: messageOf(err) };
            post({ type: 'reply', id, result: { ok: false, error } });
          }
        })();
        return;
      }
      case 'copy-link': {
        const { id, path: p } = message;
        void (async () => {
          try {
            const r = await whenRunning(running);
            post({ type: 'copy-link-reply', id, result: await r.copyLink(p) });
          } catch (err) {
            post({ type: 'copy-link-reply', id, result: { ok: false, message: messageOf(err) } });
          }
        })();
        return;
      }
      case 'open-file': {
        const { id, path: p } = message;
        void whenRunning(running)
          .then((r) => r.openFile(p))
          .catch((err: unknown): OpenFileResult => ({ ok: false, message: messageOf(err) }))
          .then((result) => post({ type: 'open-file-reply', id, result }));
        return;
      }
      case 'files-on-demand': {
        const { id, op, paths } = message;
        void whenRunning(running)
          .then((r) => r.onDemand(op, paths))
          .catch((err: unknown): OpenFileResult => ({ ok: false, message: messageOf(err) }))
          .then((result) => post({ type: 'files-on-demand-reply', id, result }));
        return;
      }
      case 'stop':
        void (running ? running.then((r) => r.close()).catch(() => undefined) : Promise.resolve())
          .then(() => post({ type: 'stopped' }))
          .finally(() => exit(0));
        return;
    }
  });
}

/** What was done (its name), or why not: the words too, for main to say in its language. */
async function answer(work: () => Promise<string>): Promise<OpenFileResult> {
  try {
    return { ok: true, name: await work() };
  } catch (err) {
    const words = wordsOf(err);
    return { ok: false, message: messageOf(err), ...(words ? { words } : {}) };
  }
}

function whenRunning(running: Promise<Running> | null): Promise<Running> {
  return running ?? Promise.reject(new Error('The engine has not been started.'));
}

/**
 * Opens and shows through main (the host has no Electron API), each answered: the window is
 * told it opened only once main's shell did.
 */
class MainOpens {
  private next = 1;
  private readonly waiting = new Map<number, (e: Error | null) => void>();

  constructor(private readonly post: (m: FromHost) => void) {}

  ask(p: string, reveal: boolean): Promise<void> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (e) => (e ? reject(e) : resolve()));
      this.post({ type: 'open-path', id, path: p, ...(reveal ? { reveal } : {}) });
    });
  }

  settle(id: number, error: string | null): void {
    const w = this.waiting.get(id);
    this.waiting.delete(id);
    w?.(error === null ? null : new SystemOpenRefused(error));
  }
}

async function start(
  init: HostInit,
  cipher: CipherProxy,
  opens: MainOpens,
  post: (m: FromHost) => void,
): Promise<Running> {
  const { stateDir } = init;
  // Main writes app.log; two processes must not rotate one file.
  const log = createFileLogger({
    file: path.join(init.logsDir ?? path.join(stateDir, 'logs'), 'engine.log'),
    verbose: init.verbose,
  });
  const accounts = await openAccountStore({
    stateDir,
    log,
    service: keychainService(process.env),
    ...(init.cipher ? { cipher } : {}),
  });
  log.info('engine host started', { store: accounts.kind, version: init.version });
  const backend = new AppBackend({
    stateDir,
    configDir: init.configDir ?? stateDir,
    accounts,
    log,
    env: process.env,
    ...(init.locale !== undefined ? { locale: init.locale } : {}),
    desktop: { version: init.version },
    logsDir: init.logsDir ?? path.join(stateDir, 'logs'),
    openUrl: (url) => post({ type: 'open-external', url }),
    openPath: (dir) => opens.ask(dir, false),
    showPath: (file) => opens.ask(file, true),
  });
  backend.on((push) => post({ type: 'push', push }));
  await backend.restorePairs();
  const others = new OthersActivity({
    backend,
    intervalMs: init.othersPollMs ?? OTHERS_POLL_MS,
    emit: (events) => post({ type: 'others-activity', events }),
    log,
  });
  others.start();
  return {
    backend,
    others,
    copyLink: async (p) => {
      try {
        const link = await shareLinkForPath(p, { stateDir, accounts, env: process.env, log });
        return { ok: true, url: link.url, name: link.name, kind: link.kind };
      } catch (err) {
        return { ok: false, message: messageOf(err) };
      }
    },
    openFile: (p) =>
      answer(async () => {
        const file = await backend.downloadAt(p);
        await opens.ask(file, false);
        return path.basename(file);
      }),
    onDemand: (op, paths) =>
      answer(async () => {
        await backend.onDemandAt(op, paths);
        return path.basename(paths[0] ?? '');
      }),
    close: async () => {
      await others.stop();
      await backend.close();
      log.info('engine host stopped');
      await log.close();
    },
  };
}
