// The layers of the house, declared as data (after VS Code's `code-import-patterns`).
// A file belongs to the layer whose `dir` is the longest prefix of its path; `flat` layers
// hold only the files directly in `dir`. `may` lists the layers it may import from (its own
// layer is always allowed); `electron` says whether it may import electron; `node` whether it
// may import Node built-ins (false for code that also runs in the renderer).
/** The engine's layers, for the layers that use the engine. */
const SYNC = [
  'sync',
  'sync-detect-remote',
  'sync-detect-local',
  'sync-down',
  'sync-up',
  'sync-loop',
];

export const layers = [
  { name: 'shared', dir: 'src/shared', may: [], electron: false, node: false },
  { name: 'service', dir: 'src/service', may: ['shared'], electron: false, node: true },
  { name: 'api', dir: 'src/main/api', may: ['shared'], electron: false, node: true },
  { name: 'journal', dir: 'src/main/journal', may: ['shared'], electron: false, node: true },
  // The engine: its vocabulary (paths, items, names, the local root) flat in src/main/sync, and
  // one sub-layer per stage. Detection imports no planner; the up side never imports the down
  // side (nor the reverse); only the loop sees every stage.
  {
    name: 'sync',
    dir: 'src/main/sync',
    flat: true,
    may: ['shared', 'api', 'journal'],
    electron: false,
    node: true,
  },
  ...[
    ['sync-detect-remote', 'detect-remote', []],
    ['sync-detect-local', 'detect-local', []],
    ['sync-down', 'down', []],
    ['sync-up', 'up', ['sync-detect-local']],
    ['sync-loop', 'loop', ['sync-detect-remote', 'sync-detect-local', 'sync-down', 'sync-up']],
  ].map(([name, dir, stages]) => ({
    name,
    dir: `src/main/sync/${dir}`,
    may: ['shared', 'api', 'journal', 'sync', ...stages],
    electron: false,
    node: true,
  })),
  {
    name: 'cli',
    dir: 'src/main/cli',
    may: ['shared', 'service', 'api', 'journal', ...SYNC],
    electron: false,
    node: true,
  },
  // The engine's utility process: the backend and its engines, no Electron API.
  {
    name: 'host',
    dir: 'src/main/host',
    may: ['shared', 'service', 'api', 'journal', ...SYNC, 'cli'],
    electron: false,
    node: true,
  },
  { name: 'platform', dir: 'src/main/platform', may: ['shared'], electron: true, node: true },
  {
    name: 'main',
    dir: 'src/main',
    flat: true,
    may: ['shared', 'service', 'api', 'journal', ...SYNC, 'cli', 'host', 'platform'],
    electron: true,
    node: true,
  },
  { name: 'preload', dir: 'src/preload', may: ['shared'], electron: true, node: false },
  { name: 'renderer', dir: 'src/renderer', may: ['shared'], electron: false, node: false },
];
