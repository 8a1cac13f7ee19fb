import type { Benchmark } from './lib';
import { largeFileFigures } from './scale-large';

// `npm run -s bench -- large`: the large-file figures of the scale benchmark, alone.
const bench: Benchmark = {
  name: 'large',
  description:
    'a 1 GiB file up and down through the sync engine (a child process) vs curl on the same ' +
    'sandbox, interleaved, best of 3; the engine child peak RSS',
  run: () => largeFileFigures(),
};

export default bench;
