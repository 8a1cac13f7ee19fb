// The local watcher in a child process, for the ENOSPC test: the parent runs it in a user
// namespace with a lowered inotify limit. Prints one JSON line per warning, per batch of changed
// folders, and once ready (with the subtrees that fell back to polling); closes when stdin ends.
import { IgnoreRules } from '../../src/main/sync/detect-local/ignore';
import { watchLocal } from '../../src/main/sync/detect-local/watch';
import { englishOf } from '../../src/shared/i18n';

export type ChildLine =
  | { type: 'warning'; message: string }
  | { type: 'change'; dirs: string[] }
  | { type: 'ready'; polled: string[] };

const print = (line: ChildLine) => process.stdout.write(JSON.stringify(line) + '\n');

const root = process.argv[2];
if (!root) throw new Error('usage: watch-child.ts <dir>');
const rules = IgnoreRules.of();
const watcher = await watchLocal({
  root,
  ignore: (rel, isDir) => rules.ignores(rel, isDir),
  onChange: (dirs) => print({ type: 'change', dirs: [...dirs] }),
  onWarning: (message) => print({ type: 'warning', message: englishOf(message) }),
  pollIntervalMs: 100,
});
print({ type: 'ready', polled: [...watcher.polled] });

process.stdin.resume();
process.stdin.on('end', () => {
  void watcher.close().then(() => process.exit(0));
});
