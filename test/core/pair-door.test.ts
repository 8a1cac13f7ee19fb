import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  doorPath,
  holdDoor,
  knock,
  type DoorAnswer,
  type DoorRequest,
  type HeldDoor,
} from '../../src/main/core/pair-door';

// The pair's door: one process holds it (the one running the pair's engine); another knocks.
// Real Unix sockets in a private runtime folder of the test's own.

const made: string[] = [];
const held: HeldDoor[] = [];
afterEach(async () => {
  for (const d of held.splice(0)) await d.close();
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

function runtime(): NodeJS.ProcessEnv {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'door-'));
  made.push(dir);
  return { XDG_RUNTIME_DIR: dir };
}

const ask: DoorRequest = { v: 1, op: 'download', paths: ['Docs/a.txt'] };

describe('the pair door', () => {
  it('is held by one process at a time; a knock gets the holder’s answer', async () => {
    const door = doorPath('/state/journals/abc.db', runtime());
    expect(Buffer.byteLength(door)).toBeLessThan(108);
    const asked: unknown[] = [];
    const first = await holdDoor(door, async (req) => {
      asked.push(req);
      return { kind: 'done' };
    });
    expect(first).not.toBe('held');
    held.push(first as HeldDoor);
    expect(statSync(path.dirname(door)).mode & 0o777).toBe(0o700);

    expect(await holdDoor(door, async () => ({ kind: 'done' }))).toBe('held');
    expect(await knock(door, ask)).toEqual({ kind: 'done' });
    expect(asked).toEqual([ask]);
  });

  it('says none where nobody holds it, and a closed door can be taken again', async () => {
    const door = doorPath('/state/journals/abc.db', runtime());
    expect(await knock(door, ask)).toBe('none');
    const first = (await holdDoor(door, async () => ({ kind: 'done' }))) as HeldDoor;
    await first.close();
    expect(await knock(door, ask)).toBe('none');
    const again = await holdDoor(door, async () => ({ kind: 'done' }));
    expect(again).not.toBe('held');
    held.push(again as HeldDoor);
  });

  it('takes over a door left by a process that died', async () => {
    const door = doorPath('/state/journals/abc.db', runtime());
    // A holder killed without closing: its socket file stays, nobody answers at it.
    await holdDoor(door, async () => ({ kind: 'done' })).then((d) => (d as HeldDoor).close());
    const child = spawn(
      process.execPath,
      [
        '-e',
        `require('net').createServer().listen(process.argv[1], () => console.log('up'))`,
        door,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
    expect(existsSync(door)).toBe(true);

    expect(await knock(door, ask)).toBe('none');
    const taken = await holdDoor(door, async () => ({ kind: 'refused', words: { key: 'x' } }));
    expect(taken).not.toBe('held');
    held.push(taken as HeldDoor);
    expect(await knock(door, ask)).toEqual({ kind: 'refused', words: { key: 'x' } });
  });

  it('tells a waiting knock to knock again when the holder closes', async () => {
    const door = doorPath('/state/journals/abc.db', runtime());
    let answered!: (a: DoorAnswer) => void;
    let asked!: () => void;
    const arrived = new Promise<void>((resolve) => (asked = resolve));
    const d = (await holdDoor(door, () => {
      asked();
      return new Promise<DoorAnswer>((resolve) => (answered = resolve));
    })) as HeldDoor;
    const waiting = knock(door, ask);
    await arrived;
    await d.close();
    expect(await waiting).toEqual({ kind: 'again' });
    answered({ kind: 'done' });
  });

  it('refuses a door folder another user could enter', async () => {
    const env = runtime();
    const door = doorPath('/state/journals/abc.db', env);
    await holdDoor(door, async () => ({ kind: 'done' })).then((d) => (d as HeldDoor).close());
    chmodSync(path.dirname(door), 0o777);
    await expect(holdDoor(door, async () => ({ kind: 'done' }))).rejects.toThrow(
      /is not a private folder of yours/,
    );
  });

  it('is the same door for two spellings of one journal', () => {
    const env = runtime();
    const dir = made[made.length - 1]!;
    expect(doorPath(path.join(dir, 'x', '..', 'j.db'), env)).toBe(
      doorPath(path.join(dir, 'j.db'), env),
    );
  });
});
