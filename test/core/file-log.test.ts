import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerSecret } from '../../src/main/api/errors';
import { NotFoundError } from '../../src/main/api/errors';
import { createFileLogger, scrubFields } from '../../src/main/core/file-log';
import { tempDir } from '../cli/run-cli';

let tmp: { dir: string; remove(): Promise<void> };
beforeEach(async () => {
  tmp = await tempDir('log');
});
afterEach(async () => {
  vi.restoreAllMocks();
  await tmp.remove();
});

async function lines(file: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, 'utf8');
  return text
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('createFileLogger', () => {
  it('does not look at the fields of a line below its level', async () => {
    // A mirror logs each file it places at debug: scrubbing lines never written took ~0.6 s of
    // a 100k mirror's main thread.
    const file = path.join(tmp.dir, 'state', 'logs', 'workspace-sync.log');
    const log = createFileLogger({ file });
    let looked = 0;
    const fields = {
      get path() {
        looked++;
        return 'a/b.txt';
      },
    };
    log.debug('placed', fields);
    expect(looked).toBe(0);
    log.info('placed', fields);
    expect(looked).toBeGreaterThan(0);
    await log.close();
  });

  it('writes JSON lines, creating the directory, at the level asked for', async () => {
    const file = path.join(tmp.dir, 'state', 'logs', 'workspace-sync.log');
    const log = createFileLogger({ file });
    log.debug('not written at info');
    log.info('started', { workspaceId: 4, dir: '/home/ann/Q3' });
    log.warn('careful');
    log.error('failed', { err: new NotFoundError('GET /folders/:id') });
    await log.close();
    log.info('after close: dropped');
    const got = await lines(file);
    expect(got.map((l) => [l.level, l.msg])).toEqual([
      ['info', 'started'],
      ['warn', 'careful'],
      ['error', 'failed'],
    ]);
    expect(got[0]).toMatchObject({ workspaceId: 4, dir: '/home/ann/Q3' });
    expect(typeof got[0]!.time).toBe('string');
    expect(got[2]!.err).toMatchObject({
      name: 'NotFoundError',
      kind: 'not-found',
      endpoint: 'GET /folders/:id',
    });
  });

  it('never writes a secret: registered values, bearer headers and secret-named keys at any depth', async () => {
    const file = path.join(tmp.dir, 'logs', 'x.log');
    const secret = 'registered-secret-4b1d';
    registerSecret(secret);
    const log = createFileLogger({ file, level: 'debug' });
    log.info(`sent ${secret} with Bearer abc.DEF-123`, {
      token: 'token-value-1',
      note: `the value ${secret} inside a string`,
      headers: { Authorization: 'Basic dXNlcjpwYXNz', other: 'ok' },
      a: {
        b: { c: { d: { e: { refresh_token: 'deep-refresh-value', accessToken: 'deep-access' } } } },
      },
      list: [{ password: 'pw-in-array' }, { clientSecret: 'client-secret-value' }],
      err: new Error(`request failed: Bearer ${secret}`),
    });
    log.debug('plain', { client_secret: 'cs-value', access_token: 'at-value', refreshToken: 'rt' });
    await log.close();
    const text = await readFile(file, 'utf8');
    for (const s of [
      secret,
      'token-value-1',
      'abc.DEF-123',
      'dXNlcjpwYXNz',
      'deep-refresh-value',
      'deep-access',
      'pw-in-array',
      'client-secret-value',
      'cs-value',
      'at-value',
    ]) {
      expect(text).not.toContain(s);
    }
    const [first, second] = await lines(file);
    expect(first!.msg).toBe('sent [redacted] with Bearer [redacted]');
    expect(first!.note).toBe('the value [redacted] inside a string');
    expect(first!.headers).toEqual({ Authorization: '[redacted]', other: 'ok' });
    expect(first!.token).toBe('[redacted]');
    expect(second).toMatchObject({ client_secret: '[redacted]', refreshToken: '[redacted]' });
  });

  it('mirrors every line to stderr when verbose', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const file = path.join(tmp.dir, 'v.log');
    const log = createFileLogger({ file, verbose: true });
    log.debug('debug is on with verbose', { password: 'hunter2-value' });
    log.info('hello');
    await log.close();
    vi.restoreAllMocks();
    const fileLines = await lines(file);
    expect(fileLines.map((l) => l.msg)).toEqual(['debug is on with verbose', 'hello']);
    const mirrored = written
      .join('')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string });
    expect(mirrored.map((l) => l.msg)).toEqual(['debug is on with verbose', 'hello']);
    expect(written.join('')).not.toContain('hunter2-value');
  });

  it('rotates at 10 MB, keeping the older lines in numbered files beside it', async () => {
    const file = path.join(tmp.dir, 'logs', 'big.log');
    const log = createFileLogger({ file });
    const filler = 'x'.repeat(1000);
    for (let i = 0; i < 11_000; i++) log.info('line', { i, filler });
    await log.close();
    const names = await readdir(path.dirname(file));
    expect(names).toContain('big.log');
    expect(names).toContain('big.log.1');
    expect(existsSync(file)).toBe(true);
    const first = (await lines(path.join(path.dirname(file), 'big.log.1')))[0]!;
    expect(first.i).toBe(0);
  });
});

describe('scrubFields', () => {
  it('survives cycles and odd values', () => {
    const a: Record<string, unknown> = { n: 1, big: 10n, fn: () => 1, when: new Date(0) };
    a.self = a;
    expect(scrubFields(a)).toEqual({
      n: 1,
      big: '10',
      fn: undefined,
      when: '1970-01-01T00:00:00.000Z',
      self: '[circular]',
    });
  });
});
