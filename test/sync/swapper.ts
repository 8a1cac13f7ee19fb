import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { once } from 'node:events';

/** A real racing process: `swapper.py` exchanging `a` and `b` atomically in a tight loop. */
export interface Swapper {
  /**
   * Stops it; both names are left as they were found, unless one was moved away meanwhile
   * (`gone`: the exchanges stopped there). Returns how many exchanges it made.
   */
  stop(): Promise<{ exchanges: number; gone: boolean }>;
}

export async function startSwapper(a: string, b: string): Promise<Swapper> {
  const child: ChildProcess = spawn('python3', [path.join(__dirname, 'swapper.py'), a, b], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = once(child, 'exit');
  // Waits for the first exchange (or the child's failure), not for a time.
  await new Promise<void>((resolve, reject) => {
    const onData = () => {
      // "gone" before "ready": the name was moved away before the first exchange; stop() says so.
      if (out.includes('ready') || out.includes('gone')) {
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`swapper exited (${code}): ${err.trim()}`)));
  });
  return {
    async stop() {
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      if (code !== 0) throw new Error(`swapper failed (${code}): ${err.trim()}`);
      return {
        exchanges: Number(/exchanges (\d+)/.exec(out)?.[1] ?? 0),
        gone: out.includes('gone'),
      };
    },
  };
}
