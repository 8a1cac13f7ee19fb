// Reads every entry of the zip file given (as the engine opens one spilled to the cache folder)
// and prints how many read calls this process made meanwhile, with one hash of what it read.
// A process of its own: a test's counter of read calls must not count another test's work.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type yauzl from 'yauzl';
import { openZip } from '../../src/main/sync/down/archive';

const readCalls = () => Number(/^syscr: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);

const file = process.argv[2]!;
const before = readCalls();
const opened = await openZip({ file }, { lazyEntries: true, autoClose: false });
const got = new Map<string, Buffer>();
await new Promise<void>((resolve, reject) => {
  opened.on('entry', (e: yauzl.Entry) => {
    opened.openReadStream(e, (err, stream) => {
      if (err) return reject(err);
      const parts: Buffer[] = [];
      stream.on('data', (c: Buffer) => parts.push(c));
      stream.on('error', reject);
      stream.on('end', () => {
        got.set(e.fileName, Buffer.concat(parts));
        opened.readEntry();
      });
    });
  });
  opened.on('end', resolve);
  opened.on('error', reject);
  opened.readEntry();
});
const reads = readCalls() - before;
opened.close();
const hash = createHash('sha256');
for (const name of [...got.keys()].sort()) hash.update(name).update(got.get(name)!);
console.log(JSON.stringify({ reads, entries: got.size, hash: hash.digest('hex') }));
