import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { runCli, tempDir } from './run-cli';

// `workspace-sync sync --once --json` end to end: a real child process, the demo sandbox over
// HTTP, a pasted token.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  tmp = await tempDir('sync-once');
});
afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

describe('workspace-sync sync --once --json', () => {
  it('syncs the demo workspace into the folder and ends with a summary line', async () => {
    const dir = path.join(tmp.dir, 'workspace');
    const state = path.join(tmp.dir, 'state');
    const token = sb.users[0]!.token;
    const run = await runCli([
      'sync',
      '--once',
      '--json',
      '--server',
      sb.baseUrl,
      '--token',
      token,
      '--workspace',
      String(sb.workspaceId),
      '--dir',
      dir,
      '--state',
      state,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');

    const lines = run.stdout.trimEnd().split('\n');
    const objects = lines.map((line) => {
      expect(() => JSON.parse(line) as unknown, line).not.toThrow();
      return JSON.parse(line) as { type: string } & Record<string, unknown>;
    });
    expect(objects.every((o) => typeof o.type === 'string')).toBe(true);
    expect(objects.some((o) => o.type === 'status')).toBe(true);
    const last = objects.at(-1)!;
    expect(last.type).toBe('summary');
    expect(last).toMatchObject({
      foldersCreated: expect.any(Number),
      filesDownloaded: expect.any(Number),
      problems: expect.any(Number),
    });

    const entries = await readdir(dir, { withFileTypes: true });
    expect(entries.find((e) => e.name === 'Reports')?.isDirectory()).toBe(true);
    expect(run.stdout).not.toContain(token);
  });
});
