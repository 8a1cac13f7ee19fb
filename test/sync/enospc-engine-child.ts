// The engine in a child process, for the engine-level ENOSPC test: it runs continuously (the
// watcher on) in a user namespace whose inotify limit the parent lowered. Prints one JSON line
// per notice and per settled round; stops when stdin ends.
import { openSync } from '../../src/main/sync/loop/open';
import { clientFor } from './harness';

export type EngineChildLine = { type: 'notice'; message: string } | { type: 'settled' };

interface Config {
  baseUrl: string;
  token: string;
  workspaceId: number;
  dir: string;
  state: string;
}

const config = JSON.parse(process.argv[2]!) as Config;
const print = (line: EngineChildLine) => process.stdout.write(JSON.stringify(line) + '\n');
const pair = await openSync({
  client: clientFor(config.baseUrl, { accessToken: config.token }),
  server: config.baseUrl,
  user: 'test',
  workspaceId: config.workspaceId,
  dir: config.dir,
  stateDir: config.state,
  pollIntervalMs: 50,
  tuning: { writeQuietMs: 0 },
});
pair.engine.on('notice', (n) => print({ type: 'notice', message: n.message }));
pair.engine.on('settled', () => print({ type: 'settled' }));
const stop = new AbortController();
process.stdin.resume();
process.stdin.on('end', () => stop.abort());
await pair.engine.run(stop.signal);
await pair.close();
process.exit(0);
