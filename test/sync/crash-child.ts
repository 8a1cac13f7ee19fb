// The engine in a child process, for the crash tests: one `syncOnce`, killed with SIGKILL at the
// chosen outbox step (the nth time it is reached) when one is given. Prints one JSON line.
// With `free`: frees those paths instead (files on demand), killed at the nth file handed to the
// trash or the nth placeholder written, when one is given. With `mirrorCrashAt` (and no `free`):
// one `syncOnce`, killed as its nth placeholder is about to be written.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { clientFor, stderrLogger } from './harness';
import { openSync } from '../../src/main/sync/loop/open';
import { FolderTrash } from '../../src/main/sync/trash';

interface Config {
  baseUrl: string;
  token: string;
  workspaceId: number;
  dir: string;
  state: string;
  crash?: { step: string; op: string; nth: number };
  free?: { paths: string[]; crashAt?: { step: 'trash' | 'placeholder'; nth: number } };
  mirrorCrashAt?: number;
}

const config = JSON.parse(process.argv[2]!) as Config;
let reached = 0;
const crashAt =
  config.free?.crashAt ??
  (config.mirrorCrashAt ? { step: 'placeholder', nth: config.mirrorCrashAt } : undefined);
const dieAt = (step: string) => {
  if (crashAt?.step === step && ++reached === crashAt.nth) process.kill(process.pid, 'SIGKILL');
};
if (crashAt?.step === 'placeholder') {
  // Killed as the nth placeholder is about to be written (placeholder.ts writes it aside first).
  // Written in turn (`writePlaceholder`) or several at once (`PlaceholderWriter`).
  const isPlaceholder = (file: unknown) =>
    typeof file === 'string' && path.basename(file).startsWith('placeholder-');
  const write = fs.writeFileSync;
  fs.writeFileSync = ((file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    if (isPlaceholder(file)) dieAt('placeholder');
    return (write as (...a: unknown[]) => void)(file, ...rest);
  }) as typeof fs.writeFileSync;
  const writeAsync = fs.promises.writeFile;
  fs.promises.writeFile = ((file: unknown, ...rest: unknown[]) => {
    if (isPlaceholder(file)) dieAt('placeholder');
    return (writeAsync as (...a: unknown[]) => Promise<void>)(file, ...rest);
  }) as typeof fs.promises.writeFile;
  syncBuiltinESMExports();
}
const folderTrash = new FolderTrash(path.join(config.state, 'trash'));
const client = clientFor(config.baseUrl, { accessToken: config.token }, { maxAttempts: 6 });
const pair = await openSync({
  client,
  server: config.baseUrl,
  user: 'test',
  workspaceId: config.workspaceId,
  dir: config.dir,
  stateDir: config.state,
  log: process.env.WSYNC_TEST_LOG ? stderrLogger : undefined,
  trash: config.free
    ? {
        put: (abs, rel) => {
          dieAt('trash');
          return folderTrash.put(abs, rel);
        },
      }
    : undefined,
  tuning: {
    writeQuietMs: 0,
    confirmDeletes: true,
    outboxStep: (step, op) => {
      const crash = config.crash;
      if (!crash || step !== crash.step || op !== crash.op) return;
      if (++reached === crash.nth) process.kill(process.pid, 'SIGKILL');
    },
  },
});
if (config.free) {
  await pair.engine.filesOnDemand('free', config.free.paths);
  await pair.close();
  process.stdout.write(JSON.stringify({ done: true }) + '\n');
} else {
  const summary = await pair.engine.syncOnce();
  await pair.close();
  const { conflicts } = pair.engine.status();
  process.stdout.write(JSON.stringify({ done: true, summary, conflicts }) + '\n');
}
