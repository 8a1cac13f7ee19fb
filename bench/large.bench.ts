import type { Benchmark } from './lib';
import { largeFileFigures } from './scale-large';

// `npm run -s bench -- large`: the large-file figures of the scale benchmark, alone.
// WSYNC_LARGE_MB=256 runs it with a smaller file (a quicker look while working on it).
const mb = Number(process.env.WSYNC_LARGE_MB ?? 1024);

const bench: Benchmark = {
  name: 'large',
  description:
    `a ${mb} MiB file up and down through the sync engine (a child process) vs curl on the ` +
    'same sandbox, interleaved, best of 3 (and vs curl with openssl sha256 of the same bytes, ' +
    'the floor with hashing); the engine child peak RSS',
  run: () => largeFileFigures({ sizeBytes: mb * 1024 * 1024 }),
};

export default bench;
