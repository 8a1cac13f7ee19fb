import { z } from 'zod';
import { proxyUrlProblem } from './proxy-url';
import type { WireWords } from './i18n';
import { LANGUAGES } from './i18n/languages';
import { ITEM_KINDS } from './item-kind';

/**
 * The one typed API the window talks to. The preload implements it over IPC; the web bridge
 * (`cli ui`) over one WebSocket. Every method is declared here as data: the schema of its
 * parameters and of its result, so that both sides validate what crosses the boundary and the
 * types follow from the schemas. Plain serializable data only; the token never crosses.
 */

const id = z.number().int().nonnegative();
/** ISO 8601 instants: the renderer formats them in the user's locale. */
const instant = z.string();

export const ItemKind = z.enum(ITEM_KINDS);
export type ItemKind = z.infer<typeof ItemKind>;

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.enum(['darwin', 'win32', 'linux', 'web']),
  /** Whether "Try the demo" is offered (the bridge started with --sandbox). */
  demo: z.boolean(),
  /** The desktop app (true) or the web window of `cli ui` (false): start at login is the app's. */
  desktop: z.boolean(),
  /** The server `cli ui --server` was started with: the sign-in view fills it in. */
  server: z.string().optional(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const Account = z.object({
  id: z.string(),
  server: z.string(),
  email: z.string(),
  name: z.string(),
  /**
   * The service no longer accepts this account's sign-in (a 401 renewal could not cure): its
   * pairs wait, kept, until it signs in again.
   */
  signedOut: z.boolean().optional(),
  /** Kept in the backend's memory only (no keychain, the person's choice): gone when it stops. */
  sessionOnly: z.boolean().optional(),
});
export type Account = z.infer<typeof Account>;

/**
 * Where a new sign-in is kept: the store (the keychain, or the app's encrypted file), this
 * session only (the backend's memory), or the plain file of `login --store file`.
 */
export const KeepAccount = z.enum(['store', 'session', 'file']);
export type KeepAccount = z.infer<typeof KeepAccount>;

/** What `accounts.storage` says before a sign-in: whether the store can keep it, or where else. */
export const AccountStorage = z.object({
  /** The store keeps a new account (a keychain, an encrypted file); false: choose `keep`. */
  remembers: z.boolean(),
  /** The plain file `keep: 'file'` writes (token in plain text, mode 0600); null where none. */
  file: z.string().nullable(),
});
export type AccountStorage = z.infer<typeof AccountStorage>;

/** Least to most powerful (conventions.md, Roles): the backend ranks roles by this order. */
export const Role = z.enum([
  'Viewer',
  'Printer',
  'Downloader',
  'Creator',
  'Collaborator',
  'Moderator',
  'Administrator',
]);
export type Role = z.infer<typeof Role>;

export const DefaultView = z.enum(['list', 'grid']);

export const Workspace = z.object({
  id,
  name: z.string(),
  color: z.string().nullable(),
  defaultView: z.string().nullable(),
  rootFolderId: id,
  role: z.string().nullable(),
  isOwner: z.boolean(),
});
export type Workspace = z.infer<typeof Workspace>;

/**
 * A sentence as data (src/shared/i18n, `WireWords`): a catalog key and its parameters, a
 * parameter itself perhaps a sentence. The window says it in its language.
 */
export const Words: z.ZodType<WireWords> = z.lazy(() =>
  z.object({
    key: z.string(),
    params: z.record(z.string(), z.union([z.string(), z.number(), Words])).optional(),
  }),
);

export const SyncPairStatus = z.object({
  state: z.enum([
    'starting',
    'scanning',
    'syncing',
    'idle',
    'paused',
    'offline',
    'error',
    'needs-attention',
    'gone',
  ]),
  message: z.string(),
  /** The message as data, for the window's language (absent: an error's own text). */
  words: Words.optional(),
  items: z.object({ done: z.number(), total: z.number() }),
  bytes: z.object({ done: z.number(), total: z.number() }),
  current: z
    .object({
      op: z.string(),
      path: z.string(),
      /** 'down' changes this computer, 'up' the service (the step's words depend on it). */
      side: z.enum(['down', 'up']).optional(),
      /** An archive's count of files. */
      files: z.number().optional(),
    })
    .nullable(),
  /** Speed and time left of the pass under way (the engine's rolling rate), when known. */
  rate: z
    .object({ bytesPerSecond: z.number(), secondsLeft: z.number().nullable() })
    .nullable()
    .optional(),
  problems: z.array(
    z.object({
      path: z.string(),
      reason: z.string(),
      message: z.string(),
      words: Words.optional(),
      at: z.number(),
      /** What `pairs.problem` names (Retry, Dismiss); `dismissed` asks for no attention. */
      key: z.string().optional(),
      dismissed: z.boolean().optional(),
    }),
  ),
  /** With `id` and `copy`: a conflict the person settles (`pairs.settleConflict`). */
  conflicts: z.array(
    z.object({
      path: z.string(),
      message: z.string(),
      words: Words.optional(),
      at: z.number(),
      id: id.optional(),
      copy: z.string().optional(),
    }),
  ),
  lastSyncAt: z.number().nullable(),
  /** Changes on the service seen but not applied yet, and why (the engine's `backlog`). */
  backlog: z
    .object({ changes: z.number(), reason: z.string(), words: Words.optional() })
    .nullable()
    .optional(),
  /** What stopped or holds the pair (a sign-out, a full disk), while its state says so. */
  error: z
    .object({ kind: z.string(), message: z.string(), words: Words.optional() })
    .nullable()
    .optional(),
  /** Deletions held back until the person answers (`pairs.answerDeletes`): which side, how many. */
  held: z
    .object({ side: z.enum(['local', 'remote']), count: z.number(), total: z.number() })
    .nullable()
    .optional(),
});
export type SyncPairStatus = z.infer<typeof SyncPairStatus>;

/** Files on demand (docs/SYNC.md): whether a pair's new files arrive in full or online only. */
export const OnDemandMode = z.enum(['full', 'online']);
export type OnDemandMode = z.infer<typeof OnDemandMode>;

export const SyncPair = z.object({
  id: z.string(),
  accountId: z.string(),
  workspaceId: id,
  workspaceName: z.string(),
  dir: z.string(),
  paused: z.boolean(),
  status: SyncPairStatus,
  /** Whether new files arrive in full or as placeholders (`pairs.setOnDemand`). */
  onDemand: OnDemandMode.optional(),
});
export type SyncPair = z.infer<typeof SyncPair>;

/** Bounds of `pollIntervalSeconds`: a poll is one request per pair to the service. */
export const POLL_SECONDS = { min: 5, max: 3600 } as const;
// No full stop: error messages put one after the last issue.
const POLL_SECONDS_RULE = `Choose a whole number of seconds from ${POLL_SECONDS.min} to ${POLL_SECONDS.max}`;

/**
 * Bounds of the transfer limits, in KB/s of 1,000 bytes (network speeds' unit); 0 is no limit.
 * The top is 10 GB/s: past any link a person limits.
 */
export const LIMIT_KBPS = { max: 10_000_000 } as const;
const LIMIT_KBPS_RULE = `Choose a whole number of KB/s from 0 (no limit) to ${LIMIT_KBPS.max.toLocaleString('en-US')}`;
const limitKBps = z
  .number()
  .int(LIMIT_KBPS_RULE)
  .min(0, LIMIT_KBPS_RULE)
  .max(LIMIT_KBPS.max, LIMIT_KBPS_RULE);

/** A column order of Browse: the column, and whether the other way round from the service's. */
export const BrowseSort = z.object({
  sort: z.enum(['alphabetical', 'modified', 'size', 'type']),
  reversed: z.boolean(),
});
export type BrowseSort = z.infer<typeof BrowseSort>;

/**
 * The person's settings, kept in `<state>/settings.json`. `ignorePatterns` are gitignore lines
 * applied to every pair before the folder's own `.workspace-sync-ignore` (which may re-include
 * with `!`, as a repository's .gitignore overrides git's global excludes).
 */
export const Settings = z.object({
  /** Notifications of others' activity (the desktop app shows them). */
  notifications: z.boolean(),
  /** Start the desktop app when the person logs in (meaningless in the web window). */
  startAtLogin: z.boolean(),
  /** How often each pair asks the service for changes; local changes go at once regardless. */
  pollIntervalSeconds: z
    .number()
    .int(POLL_SECONDS_RULE)
    .min(POLL_SECONDS.min, POLL_SECONDS_RULE)
    .max(POLL_SECONDS.max, POLL_SECONDS_RULE),
  ignorePatterns: z.array(z.string()),
  /** All uploads together, in KB/s (1 KB = 1,000 bytes); 0 for no limit. */
  uploadLimitKBps: limitKBps,
  /** All downloads together (files and folder archives), in KB/s; 0 for no limit. */
  downloadLimitKBps: limitKBps,
  /**
   * The proxy every request goes through, `http://[user:password@]host:port`; '' for the
   * environment's (HTTPS_PROXY, HTTP_PROXY, NO_PROXY). Applies from the next request on.
   */
  proxy: z
    .string()
    .max(2048)
    .superRefine((value, ctx) => {
      const problem = proxyUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  /** The language of the window, tray, notifications and engine words; 'system' follows the OS. */
  language: z.enum(['system', ...LANGUAGES]),
  /** Browse's column order per workspace (its id), as a person last chose it by a header. */
  browseSorts: z
    .record(z.string().regex(/^\d+$/), BrowseSort)
    .refine((r) => Object.keys(r).length <= 1000, 'at most 1,000 workspaces'),
});
export type Settings = z.infer<typeof Settings>;

/**
 * Remote changes arrive within 30 s, as in Nextcloud's client; local changes are sent as soon as
 * the watcher sees them, so the poll only paces others' edits and costs the service a request per
 * pair per poll (the engine's own 5 s default is for the CLI and tests).
 */
export const DEFAULT_SETTINGS: Settings = {
  notifications: true,
  startAtLogin: false,
  pollIntervalSeconds: 30,
  ignorePatterns: [],
  uploadLimitKBps: 0,
  downloadLimitKBps: 0,
  proxy: '',
  language: 'system',
  browseSorts: {},
};

/** What `settings.update` takes: any of the settings; a name that is not one is refused. */
export const SettingsPatch = z.strictObject(Settings.partial().shape);
export type SettingsPatch = z.infer<typeof SettingsPatch>;

/**
 * Where a synced item is on this device (files on demand, Browse's badges): `full` its files are
 * here, `online` online only (placeholders), `partly` a folder with both, `pinned` always kept
 * here (it, and what arrives under it, comes in full). An item not synced here has none.
 */
export const OnDevice = z.object({
  kind: ItemKind,
  id,
  state: z.enum(['full', 'online', 'partly', 'pinned']),
  /** Its files (a file: 1) and how many of them are online only: Download now has work. */
  files: z.number().int().nonnegative(),
  online: z.number().int().nonnegative(),
});
export type OnDevice = z.infer<typeof OnDevice>;

/**
 * What else a row of a synced workspace says (issue 42): `problem` it could not be synced (its
 * reason in Status), `syncing` its download is under way.
 */
export const RowMark = z.object({
  /** Null where the journal does not say (a problem of an item never recorded here). */
  kind: ItemKind.nullable(),
  id,
  mark: z.enum(['syncing', 'problem']),
});
export type RowMark = z.infer<typeof RowMark>;
export const OnDemandOp = z.enum(['download', 'pin', 'unpin', 'free']);
export type OnDemandOp = z.infer<typeof OnDemandOp>;

export const ContentSort = z.enum(['alphabetical', 'modified', 'size', 'type']);
export type ContentSort = z.infer<typeof ContentSort>;

export const Entry = z.object({
  kind: ItemKind,
  id,
  name: z.string(),
  size: z.number().nullable(),
  updatedAt: instant,
  hidden: z.boolean(),
  /** Whether the service has a thumbnail of it (`files.thumbnail`). */
  thumbnail: z.boolean().optional(),
  /** The signed-in person added it (a Creator may delete only those); absent: not known. */
  mine: z.boolean().optional(),
});
export type Entry = z.infer<typeof Entry>;

export const Page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextOffset: z.number().int().nullable() });

/**
 * A list the backend gathers whole, within a bound of items and bytes (`backend/bounded.ts`):
 * `cut` when the service listed more, and only the first ones are here.
 */
export const Listed = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), cut: z.boolean() });

export const Comment = z.object({
  id,
  body: z.string(),
  author: z.string(),
  authorId: id.nullable(),
  updatedAt: instant.nullable(),
  /** Whether this user may delete it (their own, or a Moderator and above). */
  mayDelete: z.boolean(),
});
export type Comment = z.infer<typeof Comment>;

export const Link = z.object({
  url: z.string(),
  tokenAccessible: z.boolean(),
  requirePassword: z.boolean(),
  expiresAt: instant.nullable(),
  /** Why the controls are disabled for this role, or null when they may be used. */
  readOnlyReason: z.string().nullable(),
});
export type Link = z.infer<typeof Link>;

/** An event's `detail` markup, parsed into plain text parts (never HTML). */
export const EventObject = z.object({
  text: z.string(),
  label: z.string(),
  kind: z.enum(['workspace', 'folder', 'file', 'unknown']),
  id: id.nullable(),
  workspaceId: id.nullable(),
});
export const ActivityEvent = z.object({
  id,
  at: instant,
  workspaceId: id.nullable(),
  actorId: id.nullable(),
  subject: z.string(),
  predicate: z.string(),
  objects: z.array(EventObject),
  complement: z.string(),
  text: z.string(),
  /**
   * The signed-in person's own download or view: what this computer's sync does by itself (the
   * service's events name the person, not the device), folded away unless the window asks.
   */
  ownRead: z.boolean().optional(),
});
export type ActivityEvent = z.infer<typeof ActivityEvent>;

/** The verbs the service filters events by. */
export const Verb = z.enum(['create', 'upload', 'read', 'download', 'update', 'delete', 'invite']);
export type Verb = z.infer<typeof Verb>;

export const ActivityFilters = z.object({
  accountId: z.string(),
  workspaces: z.array(id).optional(),
  verbs: z.array(Verb).optional(),
  actor: id.optional(),
  othersOnly: z.boolean().optional(),
  from: instant.optional(),
  to: instant.optional(),
  offset: z.number().int().nonnegative().optional(),
  limit: z.number().int().positive().max(500).optional(),
  /** Leave out the person's own downloads and views (`ownRead`); the page counts them. */
  foldOwnReads: z.boolean().optional(),
});
export type ActivityFilters = z.infer<typeof ActivityFilters>;

/** Issue 28, diagnostics: what About shows (versions, this OS, each pair's engine state). */
export const About = z.object({
  name: z.string(),
  version: z.string(),
  /** The OS's name, release and architecture. */
  os: z.string(),
  node: z.string(),
  /** Null where the backend runs under plain Node (`cli ui`). */
  electron: z.string().nullable(),
  pairs: z.array(
    z.object({
      pairId: z.string(),
      workspaceName: z.string(),
      state: SyncPairStatus.shape.state,
      paused: z.boolean(),
    }),
  ),
});
export type About = z.infer<typeof About>;

/** A folder on this computer as the picker lists it: absolute paths, so no path logic in the window. */
const LocalFolder = z.object({ name: z.string(), path: z.string() });
export const LocalFolders = z.object({
  /** The folder listed (absolute). */
  path: z.string(),
  home: z.string(),
  /** Up, or null at the home folder. */
  parent: z.string().nullable(),
  /** From the home folder down to this one. */
  crumbs: z.array(LocalFolder),
  folders: z.array(LocalFolder),
  /** More folders than were listed. */
  truncated: z.boolean(),
});
export type LocalFolders = z.infer<typeof LocalFolders>;
export const LocalFolderCheck = z.object({
  /** The folder, absolute (`~` expanded). */
  dir: z.string(),
  exists: z.boolean(),
  problem: z.string().nullable(),
  /** The problem as data, for the window's language (absent: only the English is known). */
  words: Words.optional(),
  /**
   * What a first sync would upload from the folder as it is (ignored names left out), counted
   * up to a bound (`more`: there are more): the window asks before merging them (issue 39).
   */
  uploads: z.object({ count: z.number().int().nonnegative(), more: z.boolean() }).optional(),
});
export type LocalFolderCheck = z.infer<typeof LocalFolderCheck>;
/** A folder of a workspace offered by selective sync: `parentId` null at the top. */
export const FolderChoice = z.object({ id, name: z.string(), parentId: id.nullable() });
export type FolderChoice = z.infer<typeof FolderChoice>;
/** A folder not synced on this computer, by id (kept out through renames), shown by its path. */
export const ExcludedFolder = z.object({ id, path: z.string(), parentId: id.nullable() });
export type ExcludedFolder = z.infer<typeof ExcludedFolder>;

// People (backend/handlers/members.ts): a workspace's members and invitations, as this user may see them.
/** A member of a workspace, or an invitation not accepted yet (`pending`). */
export const Member = z.object({
  /** The service's role map (rolemap) id: what changeRole and remove name. */
  id,
  userId: id.nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  /** As the service names it (a role this window does not know is shown as it comes). */
  role: z.string(),
  pending: z.boolean(),
  isOwner: z.boolean(),
  isYou: z.boolean(),
  /** The roles this user may give the member, least to most powerful; empty: they may not. */
  roles: z.array(Role),
  mayRemove: z.boolean(),
});
export type Member = z.infer<typeof Member>;
export const Members = z.object({
  workspace: z.object({ id, name: z.string() }),
  /** This user's own role in the workspace. */
  role: z.string().nullable(),
  /** The roles this user may invite with, least to most powerful; empty: they may not invite. */
  grantable: z.array(Role),
  /** Null when the service does not show this user the members (`refusal` says why). */
  members: z.array(Member).nullable(),
  refusal: z.string().nullable(),
  /** The refusal as data, when the service's error carries words (the window's language). */
  refusalWords: Words.optional(),
  /** The service listed more members than the window keeps: only the first are in `members`. */
  cut: z.boolean().optional(),
});
export type Members = z.infer<typeof Members>;
/** What became of each address of an invitation. */
export const InviteOutcome = z.object({
  invited: z.array(z.string()),
  alreadyMembers: z.array(z.string()),
  refused: z.array(z.string()),
});
export type InviteOutcome = z.infer<typeof InviteOutcome>;

/** What the item panel shows of an item (what the service says; version only where it does). */
export const ItemDetails = z.object({
  size: z.number().nullable(),
  createdAt: instant.nullable(),
  updatedAt: instant.nullable(),
  /** Who made the item (its owner's name as the service tells it), or null. */
  by: z.string().nullable(),
  version: z.string().nullable(),
});
export type ItemDetails = z.infer<typeof ItemDetails>;
/** An item the sync moved to its trash (the window's Trash view, backend/trash.ts). */
export const TrashEntry = z.object({
  /** Its place in the trash: what Restore and Show name. */
  id: z.string(),
  name: z.string(),
  /** Where it was, relative to `root`. */
  relPath: z.string(),
  /** The synced folder it came from. */
  root: z.string(),
  kind: ItemKind,
  trashedAt: instant,
});
export type TrashEntry = z.infer<typeof TrashEntry>;
/** A synced workspace as its pair's journal knows it (offline Browse). */
export const SyncedWorkspace = z.object({
  pairId: z.string(),
  workspaceId: id,
  name: z.string(),
  rootFolderId: id,
});
export type SyncedWorkspace = z.infer<typeof SyncedWorkspace>;

/** An item found by Browse's search, with the folder it is in ('' at the workspace's top). */
export const SearchHit = z.object({
  kind: ItemKind,
  id,
  name: z.string(),
  size: z.number().nullable(),
  updatedAt: z.string().nullable(),
  folderId: id,
  folderPath: z.string(),
});
export type SearchHit = z.infer<typeof SearchHit>;

const onAccount = { accountId: z.string() };
/** Items a file operation acts on together (a multi-selection in Browse). */
const EditItems = z
  .array(z.object({ kind: ItemKind, id, name: z.string() }))
  .min(1)
  .max(1000);
/** What a file operation on several items did: how many, and each one refused, in words. */
export const EditOutcome = z.object({
  done: z.number().int().nonnegative(),
  failed: z.array(
    z.object({
      kind: ItemKind,
      id,
      name: z.string(),
      message: z.string(),
      words: Words.optional(),
    }),
  ),
});
export type EditOutcome = z.infer<typeof EditOutcome>;
/** Base64 characters of one upload piece: well under the bridge's message bound (1 MiB). */
export const UPLOAD_CHUNK_CHARS = 700_000;

const onItem = { ...onAccount, kind: ItemKind, itemId: id };
const none = z.object({});
const done = z.null();

/** Every method: its parameters and its result, as schemas. */
export const Methods = {
  'app.info': { params: none, result: AppInfo },

  'accounts.storage': { params: none, result: AccountStorage },
  'accounts.signIn': {
    params: z.object({
      server: z.string(),
      email: z.string(),
      password: z.string(),
      keep: KeepAccount.optional(),
    }),
    result: Account,
  },
  'accounts.signInWithBrowser': {
    params: z.object({ server: z.string(), keep: KeepAccount.optional() }),
    result: Account,
  },
  'accounts.signInWithToken': {
    params: z.object({ server: z.string(), token: z.string(), keep: KeepAccount.optional() }),
    result: Account,
  },
  'accounts.tryDemo': { params: none, result: Account },
  'accounts.list': { params: none, result: z.array(Account) },
  'accounts.signOut': { params: z.object(onAccount), result: done },

  'pairs.add': {
    // `excluded`: folders not synced on this computer from the start (selective sync).
    params: z.object({
      ...onAccount,
      workspaceId: id,
      dir: z.string(),
      excluded: z.array(ExcludedFolder).optional(),
    }),
    result: SyncPair,
  },
  'pairs.list': { params: none, result: z.array(SyncPair) },
  'pairs.remove': { params: z.object({ pairId: z.string() }), result: done },
  'pairs.pause': { params: z.object({ pairId: z.string() }), result: done },
  'pairs.resume': { params: z.object({ pairId: z.string() }), result: done },
  /** Retry now: a pass starts at once, cutting short the wait after a failure. */
  'pairs.retry': { params: z.object({ pairId: z.string() }), result: done },
  /**
   * Answers the deletions a pair holds back (its status's `held`): 'confirm' lets them go
   * (deleted on the service, or moved to the trash here); 'keep' keeps what the service lists as
   * deleted and uploads it again.
   */
  'pairs.answerDeletes': {
    params: z.object({ pairId: z.string(), answer: z.enum(['confirm', 'keep']) }),
    result: done,
  },
  /** Whether new files arrive in full or online only; files already here stay as they are. */
  'pairs.setOnDemand': {
    params: z.object({ pairId: z.string(), mode: OnDemandMode }),
    result: done,
  },
  'pairs.openFolder': { params: z.object({ pairId: z.string() }), result: done },
  // Conflicts and problems a person acts on (docs/SYNC.md, Conflicts): paths are those the
  // pair's status lists, relative to its folder.
  /** Opens a file with its app ('open') or shows it in the file manager ('show'). */
  'pairs.openItem': {
    params: z.object({ pairId: z.string(), path: z.string(), how: z.enum(['open', 'show']) }),
    result: done,
  },
  'pairs.settleConflict': {
    params: z.object({
      pairId: z.string(),
      conflictId: id,
      keep: z.enum(['mine', 'theirs', 'both']),
    }),
    result: done,
  },
  'pairs.problem': {
    params: z.object({ pairId: z.string(), key: z.string(), action: z.enum(['retry', 'dismiss']) }),
    result: done,
  },

  'workspaces.list': { params: z.object(onAccount), result: Listed(Workspace) },
  'workspaces.create': {
    params: z.object({
      ...onAccount,
      name: z.string(),
      color: z.string().optional(),
      defaultView: z.string().optional(),
    }),
    result: Workspace,
  },
  'workspaces.update': {
    params: z.object({
      ...onAccount,
      workspaceId: id,
      name: z.string().optional(),
      color: z.string().optional(),
      defaultView: z.string().optional(),
    }),
    result: Workspace,
  },
  'workspaces.delete': {
    // The name the user typed to confirm: the workspace is deleted only when it matches.
    params: z.object({ ...onAccount, workspaceId: id, confirmName: z.string() }),
    result: done,
  },

  'folders.contents': {
    params: z.object({
      ...onAccount,
      folderId: id,
      query: z.string().optional(),
      sort: ContentSort.optional(),
      /** The other way round from the service's order; folders stay first. */
      reversed: z.boolean().optional(),
      offset: z.number().int().nonnegative().optional(),
      limit: z.number().int().positive().max(500).optional(),
    }),
    // With the folder's count (matching the query): the window sizes its scrollable list and
    // tells assistive technology the rows there are before it has read them all.
    result: Page(Entry).extend({ total: z.number().int().nonnegative().nullable() }),
  },
  'folders.path': {
    params: z.object({ ...onAccount, folderId: id }),
    result: z.array(z.object({ id, name: z.string() })),
  },
  'folders.downloadZip': {
    params: z.object({ ...onAccount, folderId: id, to: z.string() }),
    result: z.object({ path: z.string(), bytes: z.number() }),
  },

  'comments.list': { params: z.object(onItem), result: Listed(Comment) },
  'comments.add': { params: z.object({ ...onItem, body: z.string() }), result: Comment },
  'comments.delete': { params: z.object({ ...onItem, commentId: id }), result: done },

  'links.get': { params: z.object(onItem), result: Link },
  'links.update': {
    params: z.object({
      ...onItem,
      tokenAccessible: z.boolean().optional(),
      requirePassword: z.boolean().optional(),
      password: z.string().optional(),
      expiresAt: instant.nullable().optional(),
    }),
    result: Link,
  },
  /** Puts the link on the clipboard where the host can (the app); returns the text copied. */
  'links.copy': { params: z.object(onItem), result: z.object({ text: z.string() }) },

  'activity.list': {
    params: ActivityFilters,
    // `folded`: events of the page left out by `foldOwnReads`; `nextOffset` is the service's.
    result: Page(ActivityEvent).extend({ folded: z.number().int().nonnegative().optional() }),
  },
  'activity.auditTrail': {
    params: z.object({ ...onAccount, fileId: id }),
    result: Listed(ActivityEvent),
  },
  'activity.role': {
    params: z.object({ ...onAccount, workspaceId: id }),
    result: z.object({ role: z.string().nullable() }),
  },

  // Selective sync (docs/SYNC.md): a workspace's folders to choose from, lazily one folder at a
  // time (its root when no folder is given), and a pair's folders not synced here.
  'selection.folders': {
    params: z.object({ ...onAccount, workspaceId: id, folderId: id.optional() }),
    result: Listed(FolderChoice),
  },
  'pairs.selection': {
    params: z.object({ pairId: z.string() }),
    result: z.object({ excluded: z.array(ExcludedFolder) }),
  },
  /** The pair's whole exclusion list: folders left out go to the trash here unless unsent. */
  'pairs.setSelection': {
    params: z.object({ pairId: z.string(), excluded: z.array(ExcludedFolder) }),
    result: done,
  },

  // The sync's trash (docs/SYNC.md): what it moved there, put back, or shown in the file manager.
  'trash.list': { params: none, result: Listed(TrashEntry) },
  'trash.restore': { params: z.object({ id: z.string() }), result: z.object({ path: z.string() }) },
  'trash.show': { params: z.object({ id: z.string() }), result: done },

  'settings.get': { params: none, result: Settings },
  /** Changes some settings; answers all of them, as now stored. */
  'settings.update': { params: SettingsPatch, result: Settings },

  // Choosing a pair's folder on this computer (the window's folder picker, before pairs.add).
  /** The subfolders of a folder under the home folder (`~` expanded): the browser's picker. */
  'local.listFolders': {
    params: z.object({
      dir: z.string(),
      /** Folders whose names start with a dot too. */
      hidden: z.boolean().optional(),
      /** A folder not made yet lists its nearest existing parent. */
      nearest: z.boolean().optional(),
    }),
    result: LocalFolders,
  },
  /** What is wrong with a folder as a new pair's, as data (`problem` null: it can be used). */
  'local.checkFolder': { params: z.object({ dir: z.string() }), result: LocalFolderCheck },
  /** The OS's folder dialog, in the desktop app only (the window asks when app.info says desktop). */
  'local.chooseFolder': {
    params: z.object({ startAt: z.string().optional() }),
    result: z.object({ dir: z.string().nullable() }),
  },
  /**
   * The OS's save dialog for a folder's zip, in the desktop app only (the window asks when
   * app.info says desktop); `name` is the folder's, for the file name suggested.
   */
  'local.chooseZipFile': {
    params: z.object({ name: z.string() }),
    result: z.object({ path: z.string().nullable() }),
  },

  // People: who is in a workspace (backend/handlers/members.ts). `workspaceId` scopes every call.
  'members.list': { params: z.object({ ...onAccount, workspaceId: id }), result: Members },
  /**
   * Invites one or more addresses (separated by commas, semicolons or spaces) with a role: to
   * the workspace, or with `item` to that folder or file of it (the item panel's "Share with
   * people"; what that grants is the service's).
   */
  'members.invite': {
    params: z.object({
      ...onAccount,
      workspaceId: id,
      emails: z.string(),
      role: Role,
      item: z.object({ kind: ItemKind, itemId: id }).optional(),
    }),
    result: InviteOutcome,
  },
  /** Gives a member another role; answers the member as the service now has them. */
  'members.changeRole': {
    params: z.object({ ...onAccount, workspaceId: id, memberId: id, role: Role }),
    result: Member,
  },
  /** Takes a member out of the workspace (or withdraws an invitation). */
  'members.remove': {
    params: z.object({ ...onAccount, workspaceId: id, memberId: id }),
    result: done,
  },
  // Browse like a file manager (issue 28): thumbnails, an item's details, opening a synced item
  // on this computer, its page in the browser, and the synced tree from a pair's journal when the
  // service cannot be reached.
  /** A data URL of the file's thumbnail (bounded in size), or null where there is none. */
  'files.thumbnail': {
    params: z.object({ ...onAccount, fileId: id }),
    result: z.object({ dataUrl: z.string().nullable() }),
  },
  'items.details': { params: z.object(onItem), result: ItemDetails },
  /** Opens a synced item with its app ('open') or shows it in its folder ('show'). */
  'items.openSynced': {
    params: z.object({ ...onItem, workspaceId: id, how: z.enum(['open', 'show']) }),
    result: done,
  },
  /**
   * Files on demand: the state on this device of a folder's items that are synced here (the
   * journal of the workspace's pair), and an action on one item, answered once the engine
   * applied it; a download (and a pin's) once its files are here, or `waiting` when they come
   * with a later sync (the pair paused, offline, or the download failed: its status says).
   */
  'items.onDevice': {
    // `above`: the folders above it (Browse's trail), so that one inside a folder left out is
    // known as left out.
    params: z.object({
      ...onAccount,
      workspaceId: id,
      folderId: id,
      above: z.array(id).max(1000).optional(),
    }),
    result: z.object({
      pairId: z.string().nullable(),
      items: z.array(OnDevice),
      /** Rows with a problem or a download under way. */
      marks: z.array(RowMark),
      /** The folders left out here (selective sync), by id: a handful. */
      excluded: z.array(id),
      /**
       * The folder shown: `synced` here (an item of it not yet recorded is on its way),
       * `excluded` in a folder left out, `unknown` neither (not synced here, or not yet).
       */
      here: z.enum(['synced', 'excluded', 'unknown']),
    }),
  },
  'items.onDemand': {
    params: z.object({ ...onItem, workspaceId: id, op: OnDemandOp }),
    result: z.object({ item: OnDevice.nullable(), waiting: z.boolean() }),
  },
  // File operations in Browse (issue 42), on the service, for any workspace the account sees
  // (backend/handlers/edit.ts); a synced workspace learns them from the feed like anyone's.
  'edit.newFolder': {
    params: z.object({ ...onAccount, workspaceId: id, parentId: id, name: z.string() }),
    result: Entry,
  },
  'edit.rename': { params: z.object({ ...onItem, name: z.string() }), result: Entry },
  /** Each item on its own: one refused is said, the others are moved. */
  'edit.move': {
    params: z.object({ ...onAccount, items: EditItems, to: id }),
    result: EditOutcome,
  },
  /** Deletes on the service (it keeps no trash): each item on its own, as a move. */
  'edit.delete': { params: z.object({ ...onAccount, items: EditItems }), result: EditOutcome },
  /**
   * An upload from the window, in pieces (the bridge and IPC carry messages of bounded size):
   * begun with its size, its bytes in order (base64), sent to the service when all are here.
   */
  'uploads.begin': {
    params: z.object({
      ...onAccount,
      folderId: id,
      name: z.string().min(1),
      size: z.number().int().nonnegative(),
    }),
    result: z.object({ uploadId: z.string() }),
  },
  'uploads.chunk': {
    params: z.object({ uploadId: z.string(), data: z.string().max(UPLOAD_CHUNK_CHARS) }),
    result: z.object({ received: z.number().int().nonnegative() }),
  },
  'uploads.finish': { params: z.object({ uploadId: z.string() }), result: Entry },
  'uploads.cancel': { params: z.object({ uploadId: z.string() }), result: done },
  /** Opens the item's share link page in the browser (the service has no other page for it). */
  'links.open': { params: z.object(onItem), result: done },
  /** The account's synced workspaces, read from their journals (offline Browse). */
  'synced.workspaces': { params: z.object(onAccount), result: z.array(SyncedWorkspace) },
  'synced.contents': {
    params: z.object({
      pairId: z.string(),
      folderId: id,
      query: z.string().optional(),
      sort: ContentSort.optional(),
      /** The other way round from the service's order; folders stay first. */
      reversed: z.boolean().optional(),
      offset: z.number().int().nonnegative().optional(),
      limit: z.number().int().positive().max(500).optional(),
    }),
    result: Page(Entry).extend({ total: z.number().int().nonnegative().nullable() }),
  },
  'synced.path': {
    params: z.object({ pairId: z.string(), folderId: id }),
    result: z.array(z.object({ id, name: z.string() })),
  },
  /**
   * Browse's search of the whole workspace from its pair's journal, as the person types (issue
   * 42): `pairId` null when the workspace is not synced here (the window searches the service
   * then); `excluded` folders left out here, whose contents are not searched.
   */
  'synced.search': {
    params: z.object({
      ...onAccount,
      workspaceId: id,
      query: z.string().max(500),
      limit: z.number().int().positive().max(500).optional(),
    }),
    result: z.object({
      pairId: z.string().nullable(),
      hits: z.array(SearchHit),
      more: z.boolean(),
      excluded: z.number().int().nonnegative(),
    }),
  },
  /**
   * The one folder holding all of a burst's files, or null (they are in several, or one is gone):
   * the service's events name a file and its workspace, not its folder.
   */
  'activity.burstFolder': {
    params: z.object({ ...onAccount, fileIds: z.array(id).min(1).max(100) }),
    result: z.object({ folder: z.object({ id, name: z.string() }).nullable() }),
  },

  // Issue 28, diagnostics (About).
  'app.about': { params: none, result: About },
  /**
   * The text of Copy diagnostics: versions, pairs, recent problems; no token, password or email,
   * and names (files, folders, workspaces, servers) only with `includeNames`. The desktop host
   * puts it on the clipboard too.
   */
  'app.diagnostics': {
    params: z.object({ includeNames: z.boolean() }),
    result: z.object({ text: z.string() }),
  },
  /** Opens the logs folder in the file manager (made first if no log was written yet). */
  'app.openLogs': { params: none, result: done },
} as const;

export type MethodName = keyof typeof Methods;
export type ParamsOf<M extends MethodName> = z.input<(typeof Methods)[M]['params']>;
export type ResultOf<M extends MethodName> = z.output<(typeof Methods)[M]['result']>;

/** Events pushed to the window. */
export const Events = {
  'pair-status': z.object({ pairId: z.string(), status: SyncPairStatus }),
  activity: z.object({ accountId: z.string(), event: ActivityEvent }),
  'zip-progress': z.object({ folderId: id, bytes: z.number(), total: z.number().nullable() }),
  /**
   * A page the user must see in their browser (the service's sign-in page of "Sign in with your
   * browser"): the web window opens it in a new tab; the app opens the system browser itself.
   */
  'open-url': z.object({ url: z.string() }),
  /**
   * The desktop app asks the window to show something: the item a notification or a tray entry
   * is about (in Browse), or the activity feed.
   */
  show: z.union([
    z.object({
      kind: z.literal('item'),
      accountId: z.string(),
      workspaceId: id,
      itemKind: ItemKind,
      itemId: id,
      name: z.string(),
    }),
    z.object({ kind: z.literal('activity'), accountId: z.string().nullable() }),
    /** A pair's card (Status): a conflict, a sign-out or a full disk to look at. */
    z.object({ kind: z.literal('pair'), pairId: z.string() }),
  ]),
  /** Every setting, after each change (the app's main process applies notifications and login). */
  settings: Settings,
} as const;
export type EventName = keyof typeof Events;
export type EventOf<E extends EventName> = z.output<(typeof Events)[E]>;

/**
 * An error crossing the boundary: a kind the window can branch on and a message a person can
 * act on (never a stack, never a secret).
 */
export const AppError = z.object({
  kind: z.enum([
    'invalid',
    'not-authenticated',
    'forbidden',
    'not-found',
    'conflict',
    'offline',
    'unsupported',
    'internal',
  ]),
  message: z.string(),
  /** The message as data, for the window's language (absent: only the English is known). */
  words: Words.optional(),
});
export type AppError = z.infer<typeof AppError>;

export class AppCallError extends Error {
  /** The message as data (`wordsOf` in the main process, `messageOf` in the window read it). */
  readonly words?: WireWords;
  constructor(readonly error: AppError) {
    super(error.message);
    if (error.words) this.words = error.words;
    this.name = 'AppCallError';
  }
}

/** What the window holds: call any method, listen to any event. */
export interface WorkspaceSyncApi {
  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  on<E extends EventName>(event: E, listener: (data: EventOf<E>) => void): () => void;
}

/** The wire format of the bridge (and the IPC payloads): one request, one reply, or an event. */
export const Request = z.object({ id: z.number().int(), method: z.string(), params: z.unknown() });
export const Reply = z.union([
  z.object({ id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
  z.object({ id: z.number().int(), ok: z.literal(false), error: AppError }),
]);
export const Push = z.object({ event: z.string(), data: z.unknown() });

export function isMethod(name: string): name is MethodName {
  return Object.hasOwn(Methods, name);
}

/** The global name under which the preload exposes the API in the renderer. */
export const API_GLOBAL = 'workspaceSync';

/** IPC channel names, shared by main and preload so they cannot drift apart. */
export const IpcChannel = {
  call: 'api:call',
  event: 'api:event',
} as const;
