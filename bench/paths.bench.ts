import path from 'node:path';
import { joinUnderRoot } from '../src/shared/paths';
import { sideBySide, type Benchmark } from './lib';

// The safe join runs once per remote item on every walk: it must cost about what a plain
// join does. Baseline: node's path.join, which checks nothing.
const root = '/home/ann/Workspace Sync/Q3 Planning';
const segments = ['Reports', 'Finance 2026', 'Café ☕', 'summary (final).pdf'];

const bench: Benchmark = {
  name: 'paths',
  description: 'joinUnderRoot (validated) against node:path join (unvalidated)',
  async run() {
    let sink = 0;
    const [safe, plain] = sideBySide(
      () => {
        sink += joinUnderRoot(root, segments).length;
      },
      () => {
        sink += path.join(root, ...segments).length;
      },
    );
    if (sink === 0) throw new Error('unreachable: keeps the joins from being optimised away');
    return {
      join_under_root_per_s: safe,
      node_path_join_per_s: plain,
      time_ratio_vs_node_join: Math.round((plain / safe) * 100) / 100,
    };
  },
};

export default bench;
