// The layers of the house, declared as data (after VS Code's `code-import-patterns`).
// A file belongs to the layer whose `dir` is the longest prefix of its path; `flat` layers
// hold only the files directly in `dir`. `may` lists the layers it may import from (its own
// layer is always allowed); `node` says whether it may import Node built-ins (false for code
// that also runs in the renderer). Which layers may import a given package is in `packages`.
/** The engine's layers: only its front door (the 'engine' layer) imports them. */
const SYNC = [
  'sync',
  'sync-detect-remote',
  'sync-detect-local',
  'sync-down',
  'sync-up',
  'sync-loop',
];

export const layers = [
  { name: 'shared', dir: 'src/shared', may: [], node: false },
  // The sandbox: a development tool, reached only from src/dev (never from what the app ships).
  { name: 'service', dir: 'src/service', may: ['shared'], node: true },
  { name: 'api', dir: 'src/main/api', may: ['shared'], node: true },
  // What every room uses and is not the engine's: the logger, file logs, the heap's settings, the
  // pair's door (one process runs a pair's engine; others ask it: core/pair-door.ts).
  { name: 'core', dir: 'src/main/core', may: ['shared', 'api'], node: true },
  { name: 'journal', dir: 'src/main/journal', may: ['shared'], node: true },
  // The engine: its vocabulary (paths, items, names, the local root) flat in src/main/sync, and
  // one sub-layer per stage. Detection imports no planner; the up side never imports the down
  // side (nor the reverse); only the loop sees every stage.
  {
    name: 'sync',
    dir: 'src/main/sync',
    flat: true,
    may: ['shared', 'api', 'core', 'journal'],
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
    may: ['shared', 'api', 'core', 'journal', 'sync', ...stages],
    node: true,
  })),
  // The engine's one front door (src/main/engine/index.ts): the only way in for every room below.
  { name: 'engine', dir: 'src/main/engine', may: SYNC, node: true },
  // An error's words for a person: messageOf, UserError, the program's name.
  { name: 'errors', dir: 'src/main/errors', may: ['shared', 'api'], node: true },
  // A pair's folders read beside the engine: the workspace's folders for selective sync, and the
  // synced tree as the journal last recorded it (Browse, offline).
  {
    name: 'folders',
    dir: 'src/main/folders',
    may: ['shared', 'api', 'journal', 'engine'],
    node: true,
  },
  // State files: atomic JSON files, the state directory, the settings.
  { name: 'state', dir: 'src/main/state', may: ['shared', 'core', 'engine'], node: true },
  // The account store, the keychain, and a signed-in connection to a server.
  {
    name: 'accounts',
    dir: 'src/main/accounts',
    may: ['api', 'core', 'engine', 'errors', 'state'],
    node: true,
  },
  // What needs no Electron (plain Node, the CLI uses it too): clipboard, notify-send, opening a
  // folder, the file managers' menus. What needs Electron is 'platform' (the `packages` list).
  { name: 'os', dir: 'src/main/os', may: ['shared', 'core', 'errors'], node: true },
  // A synced local path's share link, found through the journals.
  {
    name: 'links',
    dir: 'src/main/links',
    may: ['api', 'journal', 'core', 'engine', 'errors', 'accounts'],
    node: true,
  },
  // The window's backend (AppBackend) and its web bridge.
  {
    name: 'backend',
    dir: 'src/main/backend',
    may: ['shared', 'api', 'core', 'engine', 'folders', 'state', 'accounts', 'os', 'links'],
    node: true,
  },
  // The terminal program `workspace-sync`.
  {
    name: 'cli',
    dir: 'src/main/cli',
    may: [
      'shared',
      'api',
      'core',
      'engine',
      'errors',
      'folders',
      'state',
      'accounts',
      'os',
      'links',
      'backend',
    ],
    node: true,
  },
  // The engine's utility process: the backend and its engines, no Electron API.
  {
    name: 'host',
    dir: 'src/main/host',
    may: ['shared', 'core', 'engine', 'errors', 'accounts', 'links', 'backend'],
    node: true,
  },
  // What needs Electron: its adapters, and what only they show (the tray's menu and state, the
  // notices' words, the main process's language).
  { name: 'platform', dir: 'src/main/platform', may: ['shared'], node: true },
  // The main process's wiring (it ships: never the sandbox).
  {
    name: 'main',
    dir: 'src/main',
    flat: true,
    may: ['shared', 'core', 'state', 'os', 'backend', 'cli', 'host', 'platform'],
    node: true,
  },
  // Development entries the app never bundles: the CLI from source with the embedded sandbox.
  { name: 'dev', dir: 'src/dev', may: ['service', 'cli'], node: true },
  { name: 'preload', dir: 'src/preload', may: ['shared'], node: false },
  { name: 'renderer', dir: 'src/renderer', may: ['shared'], node: false },
];

// Package allow-lists (after `code-import-patterns`): a package named here may be imported
// only by the layers listed; any other package by every layer.
export const packages = [
  // The Electron API: the adapters, the main process's wiring and the preload.
  { name: 'electron', layers: ['platform', 'main', 'preload'] },
  // All SQL lives in the journal (and in the sandbox's own database).
  { name: 'better-sqlite3', layers: ['journal', 'service'] },
];
