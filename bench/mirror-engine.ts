// The engine side of the mirror benchmark, run in its own process so that its memory is
// measured alone: `node --import tsx bench/mirror-engine.ts '<EngineArgs as JSON>'`. Opens the
// sync pair, times one `engine.syncOnce()` (only that) and prints one JSON line (EngineLine).
import { ServiceClient } from '../src/main/api/client';
import { openSession } from '../src/main/api/oauth';
import { openSync } from '../src/main/sync/loop/open';
import { recordingLogger, type EngineArgs, type EngineLine } from './mirror-util';

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? '') as EngineArgs;
  const { transport } = openSession({
    baseUrl: args.baseUrl,
    clientId: args.clientId,
    clientSecret: args.clientSecret,
    tokens: { accessToken: args.token },
  });
  const client = new ServiceClient(transport);
  const { log, digest } = recordingLogger();
  const { engine, close } = await openSync({
    client,
    server: args.baseUrl,
    user: args.email,
    workspaceId: args.workspaceId,
    dir: args.dir,
    stateDir: args.stateDir,
    log,
  });
  try {
    const startRssMb = Math.round(process.memoryUsage().rss / 1024 ** 2);
    // When each state was first reached: 'syncing' comes once the walk and the plan are done.
    const reached: Record<string, number> = {};
    const started = performance.now();
    const cpu = process.cpuUsage();
    engine.on('status', (s) => {
      reached[s.state] ??= Math.round(performance.now() - started);
    });
    const summary = await engine.syncOnce();
    const ms = performance.now() - started;
    const spent = process.cpuUsage(cpu);
    const line: EngineLine = {
      ms: Math.round(ms),
      reached,
      start_rss_mb: startRssMb,
      summary: { ...summary },
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      cpu_ms: Math.round((spent.user + spent.system) / 1000),
      problems: engine.status().problems.length,
      log: digest,
    };
    console.log(JSON.stringify(line));
  } finally {
    await close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
