// One transfer of the throttle benchmark, in a process of its own so that its peak memory is its
// own: `node --import tsx bench/throttle-child.ts '<ChildArgs as JSON>'`. Downloads a file into a
// temporary file the engine's way (`writeTemp`), or uploads one the engine's way (read from its
// descriptor, hashed as sent), within `kbps` (0 for no limit); prints one JSON line.
import { openSync } from 'node:fs';
import { ServiceClient } from '../src/main/api/client';
import { openSession } from '../src/main/api/oauth';
import { KB, processTransfers } from '../src/main/api/throttle';
import { writeTemp } from '../src/main/sync/download';
import { readHashed } from '../src/main/sync/file-read';

export interface ChildArgs {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  token: string;
  direction: 'up' | 'down';
  kbps: number;
  /** The file to read (up) or write (down). */
  file: string;
  size: number;
  /** Down: the file's id; up: the folder's. */
  id: number;
}

export interface ChildLine {
  seconds: number;
  kbps: number;
  maxRssMb: number;
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? '') as ChildArgs;
  const { transport } = openSession({
    baseUrl: args.baseUrl,
    clientId: args.clientId,
    clientSecret: args.clientSecret,
    tokens: { accessToken: args.token },
  });
  const client = new ServiceClient(transport);
  processTransfers.setKBps(
    args.direction === 'up'
      ? { upKBps: args.kbps, downKBps: 0 }
      : { upKBps: 0, downKBps: args.kbps },
  );
  const started = performance.now();
  if (args.direction === 'down') {
    const res = await client.download(args.id, { expectBytes: args.size });
    await writeTemp(res.body, args.file, args.size, () => {});
  } else {
    const fd = openSync(args.file, 'r');
    await client.uploadFile(
      args.id,
      `up-${process.pid}.bin`,
      () => readHashed(fd, args.size, () => {}),
      args.size,
    );
  }
  const seconds = (performance.now() - started) / 1000;
  const line: ChildLine = {
    seconds: Number(seconds.toFixed(2)),
    kbps: Math.round(args.size / KB / seconds),
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  console.log(JSON.stringify(line));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
