import type { ChildProcess } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startCli, tempDir } from './run-cli';

// Issue 24, row 12: a sync folder under /proc chosen in the window made `cli ui` spin at 100%
// CPU (a recursive mkdirSync that never ends under /proc) and ignore SIGTERM. The bridge runs as
// a process of its own here, so that a spinning one fails this test instead of hanging it.

type Reply = {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: { kind: string; message: string };
};

let tmp: { dir: string; remove(): Promise<void> };
let child: ChildProcess | null = null;

beforeAll(async () => {
  tmp = await tempDir('system-folder');
});

afterAll(async () => {
  // A bridge that did not stop on SIGTERM (the bug) is ended here.
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await tmp?.remove();
});

/** Every reply by id, as they come. */
function replies(ws: WebSocket): Map<number, Promise<Reply>> {
  const waiting = new Map<number, (r: Reply) => void>();
  const got = new Map<number, Promise<Reply>>();
  for (const id of [1, 2, 3, 4, 5, 6])
    got.set(id, new Promise((resolve) => waiting.set(id, resolve)));
  ws.on('message', (data: WebSocket.RawData) => {
    const msg = JSON.parse(data.toString()) as Reply;
    waiting.get(msg.id)?.(msg);
  });
  return got;
}

/** `p`, or a rejection naming `what` once `ms` have passed (a deadline, not a timing claim). */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_r, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer to ${what} within ${ms} ms`)), ms);
    }),
  ]);
}

describe('a system folder chosen in the window (cli ui)', () => {
  it('is refused in one line, promptly; the bridge answers meanwhile and stops on SIGTERM', async () => {
    const staticDir = path.join(tmp.dir, 'static');
    mkdirSync(staticDir);
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>x</title>');
    // A folder of the user's that is a link into /proc: refused by where it leads.
    const link = path.join(tmp.dir, 'looks-fine');
    symlinkSync('/proc/self', link);
    const ui = startCli(['ui', '--sandbox', '--static', staticDir], {
      env: { WORKSPACE_SYNC_STATE: path.join(tmp.dir, 'ui-state') },
    });
    const proc = (child = ui.child);
    const exited = ui.exited.then((run) => run.code);
    const first = await ui.firstLine;
    const [, port, secret] = /^http:\/\/127\.0\.0\.1:(\d+)\/#secret=(.+)$/.exec(
      (JSON.parse(first) as { url: string }).url,
    )!;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api?secret=${secret}`, {
      origin: `http://127.0.0.1:${port}`,
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const got = replies(ws);
    const send = (id: number, method: string, params: unknown) =>
      ws.send(JSON.stringify({ id, method, params }));
    try {
      send(1, 'pairs.list', {});
      const [pair] = (await within(got.get(1)!, 20_000, 'pairs.list')).result as {
        accountId: string;
        workspaceId: number;
      }[];
      const add = (id: number, dir: string) =>
        send(id, 'pairs.add', { accountId: pair!.accountId, workspaceId: pair!.workspaceId, dir });
      add(2, '/proc/self/workspace-sync-x');
      add(3, '/sys/workspace-sync-x');
      add(4, path.join(link, 'Q3'));
      send(5, 'app.info', {});
      expect(await within(got.get(5)!, 20_000, 'app.info')).toMatchObject({ ok: true });
      const refusals = await within(
        Promise.all([2, 3, 4].map((id) => got.get(id)!)),
        20_000,
        'pairs.add of a system folder',
      );
      for (const r of refusals) {
        expect(r.ok).toBe(false);
        expect(r.error!.kind).toBe('invalid');
        expect(r.error!.message).toMatch(/is in a system folder.*choose a folder/);
        expect(r.error!.message).not.toMatch(/\n|E[A-Z]{3,}/);
      }
      expect(refusals[2]!.error!.message).toContain(`(it leads to /proc/`);
      // Still answering after the refusals.
      send(6, 'pairs.list', {});
      expect((await within(got.get(6)!, 20_000, 'pairs.list')).result).toHaveLength(1);
    } finally {
      ws.close();
    }
    proc.kill('SIGTERM');
    expect(await within(exited, 20_000, 'SIGTERM'), ui.out.stderr).toBe(0);
  });
});
