// The engine in a child process, for the crash tests: one `syncOnce`, killed with SIGKILL at the
// chosen outbox step (the nth time it is reached) when one is given. Prints one JSON line.
import { clientFor, stderrLogger } from './harness';
import { openSync } from '../../src/main/sync/loop/open';

interface Config {
  baseUrl: string;
  token: string;
  workspaceId: number;
  dir: string;
  state: string;
  crash?: { step: string; op: string; nth: number };
}

const config = JSON.parse(process.argv[2]!) as Config;
let reached = 0;
const client = clientFor(config.baseUrl, { accessToken: config.token }, { maxAttempts: 6 });
const pair = await openSync({
  client,
  server: config.baseUrl,
  user: 'test',
  workspaceId: config.workspaceId,
  dir: config.dir,
  stateDir: config.state,
  log: process.env.WSYNC_TEST_LOG ? stderrLogger : undefined,
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
const summary = await pair.engine.syncOnce();
await pair.close();
const { conflicts } = pair.engine.status();
process.stdout.write(JSON.stringify({ done: true, summary, conflicts }) + '\n');
