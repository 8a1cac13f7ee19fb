import {
  english,
  translator,
  type Language,
  type Translator,
  type WireWords,
} from '../shared/i18n';
import { durationWords, stepWords } from '../shared/progress-words';
import type { ProxyProblem } from '../shared/proxy-url';
import type { SyncOperation } from '../shared/sync-status';

/**
 * Every string the window shows, in one place, so wording stays consistent: each is a message of
 * the shared catalog (`src/shared/i18n`, English and German), in the language chosen by
 * `setLanguage` (main.tsx, from the setting or the browser's languages). Functions take what
 * varies; numbers and dates are formatted by the caller with Intl (format.ts).
 */
const stringsOf = (tr: Translator, t = tr.t) => ({
  appName: t('app.name'),
  loading: t('app.loading'),
  retry: t('app.retry'),
  cancel: t('app.cancel'),
  save: t('app.save'),
  close: t('app.close'),
  genericError: t('app.genericError'),
  connectionLost: t('app.connectionLost'),
  /** A sentence another process sent as data (the engine's), else the text it came with. */
  say: (words: WireWords | undefined, text: string) => (words ? tr.say(words) : text),

  nav: {
    about: 'About', // TODO(i18n)
    label: t('nav.label'),
    status: t('nav.status'),
    browse: t('nav.browse'),
    activity: t('nav.activity'),
    workspaces: t('nav.workspaces'),
    settings: t('nav.settings'),
    signOut: t('nav.signOut'),
    signedInAs: (name: string, email: string) =>
      name && name !== email
        ? t('nav.signedInAsNamed', { name, email })
        : t('nav.signedInAs', { email }),
  },

  signIn: {
    // TODO(i18n): issue 28's sign-in (a bare host is enough).
    serverHint: 'The host name is enough, such as files.example.com.',
    orPassword: 'or sign in with your email and password',
    title: t('signIn.title'),
    intro: t('signIn.intro'),
    server: t('signIn.server'),
    serverPlaceholder: t('signIn.serverPlaceholder'),
    email: t('signIn.email'),
    password: t('signIn.password'),
    submit: t('signIn.submit'),
    submitting: t('signIn.submitting'),
    or: t('signIn.or'),
    withBrowser: t('signIn.withBrowser'),
    withBrowserHint: t('signIn.withBrowserHint'),
    browserWaiting: t('signIn.browserWaiting'),
    browserOpenAgain: t('signIn.browserOpenAgain'),
    browserCancel: t('signIn.browserCancel'),
    advanced: t('signIn.advanced'),
    token: t('signIn.token'),
    tokenSubmit: t('signIn.tokenSubmit'),
    demo: t('signIn.demo'),
    demoHint: t('signIn.demoHint'),
    serverRequired: t('signIn.serverRequired'),
    failed: t('signIn.failed'),
  },

  status: {
    title: t('status.title'),
    noPairs: t('status.noPairs'),
    setupTitle: t('status.setupTitle'),
    workspace: t('status.workspace'),
    folder: t('status.folder'),
    folderPlaceholder: t('status.folderPlaceholder'),
    start: t('status.start'),
    starting: t('status.starting'),
    states: {
      starting: t('status.state.starting'),
      scanning: t('status.state.scanning'),
      syncing: t('status.state.syncing'),
      idle: t('status.state.idle'),
      paused: t('status.state.paused'),
      offline: t('status.state.offline'),
      error: t('status.state.error'),
      'needs-attention': t('status.state.needs-attention'),
    },
    syncedTo: (dir: string) => t('status.syncedTo', { dir }),
    items: (done: string, total: string) => t('status.items', { done, total }),
    bytes: (done: string, total: string) => t('status.bytes', { done, total }),
    progress: t('status.progress'),
    current: t('status.current'),
    /** The pass's speed and time left (PairProgress); the step's words are shared with the CLI. */
    speed: (perSecond: string) => t('status.speed', { perSecond }),
    timeLeft: (duration: string) => t('status.timeLeft', { duration }),
    duration: (seconds: number) => durationWords(seconds, tr),
    step: (op: SyncOperation) => stepWords(op, tr),
    lastSync: (when: string) => t('status.lastSync', { when }),
    pause: t('status.pause'),
    resume: t('status.resume'),
    openFolder: t('status.openFolder'),
    /** The answers to deletions held back (the status message says which and how many). */
    held: {
      confirmLocal: t('status.held.confirmLocal'),
      confirmRemote: t('status.held.confirmRemote'),
      keepRemote: t('status.held.keepRemote'),
    },
    problems: t('status.problems'),
    noProblems: t('status.noProblems'),
    conflicts: t('status.conflicts'),
    noConflicts: t('status.noConflicts'),
    remove: t('status.remove'),
    removeLabel: (workspace: string) => t('status.removeLabel', { workspace }),
    removeTitle: (workspace: string) => t('status.removeTitle', { workspace }),
    removeExplain: (workspace: string, dir: string) =>
      t('status.removeExplain', { workspace, dir }),
    removeSubmit: t('status.removeSubmit'),
    removing: t('status.removing'),
  },

  browse: {
    title: t('browse.title'),
    workspace: t('browse.workspace'),
    breadcrumbs: t('browse.breadcrumbs'),
    search: t('browse.search'),
    searchPlaceholder: t('browse.searchPlaceholder'),
    sort: t('browse.sort'),
    sorts: {
      alphabetical: t('browse.sort.alphabetical'),
      modified: t('browse.sort.modified'),
      size: t('browse.sort.size'),
      type: t('browse.sort.type'),
    },
    name: t('browse.name'),
    size: t('browse.size'),
    modified: t('browse.modified'),
    hidden: t('browse.hidden'),
    hiddenHint: t('browse.hiddenHint'),
    empty: t('browse.empty'),
    noMatches: (query: string) => t('browse.noMatches', { query }),
    noWorkspaces: t('browse.noWorkspaces'),
    folder: t('browse.folder'),
    file: t('browse.file'),
    openFolder: (name: string) => t('browse.openFolder', { name }),
    details: (name: string) => t('browse.details', { name }),
    contents: t('browse.contents'),
  },

  menu: {
    label: (name: string) => t('menu.label', { name }),
    copyLink: t('menu.copyLink'),
    details: t('menu.details'),
    copied: t('menu.copied'),
  },

  item: {
    panel: (name: string) => t('item.panel', { name }),
    close: t('item.close'),
    comments: t('item.comments'),
    noComments: t('item.noComments'),
    addComment: t('item.addComment'),
    mayNotComment: t('item.mayNotComment'),
    commentPlaceholder: t('item.commentPlaceholder'),
    post: t('item.post'),
    posting: t('item.posting'),
    deleteComment: t('item.deleteComment'),
    deleteCommentLabel: (author: string) => t('item.deleteCommentLabel', { author }),
    unknownAuthor: t('item.unknownAuthor'),
    share: t('item.share'),
    linkEnabled: t('item.linkEnabled'),
    requirePassword: t('item.requirePassword'),
    linkPassword: t('item.linkPassword'),
    setPassword: t('item.setPassword'),
    expires: t('item.expires'),
    noExpiry: t('item.noExpiry'),
    clearExpiry: t('item.clearExpiry'),
    copy: t('item.copy'),
    copied: (text: string) => t('item.copied', { text }),
    copyFailed: t('item.copyFailed'),
    linkOff: t('item.linkOff'),
    audit: t('item.audit'),
    auditHidden: t('item.auditHidden'),
    auditEmpty: t('item.auditEmpty'),
    zip: t('item.zip'),
    zipTo: t('item.zipTo'),
    zipToPlaceholder: t('item.zipToPlaceholder'),
    zipSubmit: t('item.zipSubmit'),
    zipProgress: (bytes: string) => t('item.zipProgress', { bytes }),
    zipSaved: (path: string) => t('item.zipSaved', { path }),
    zipFailed: t('item.zipFailed'),
  },

  activity: {
    title: t('activity.title'),
    filters: t('activity.filters'),
    workspace: t('activity.workspace'),
    allWorkspaces: t('activity.allWorkspaces'),
    verbs: t('activity.verbs'),
    verbNames: {
      create: t('activity.verb.create'),
      upload: t('activity.verb.upload'),
      read: t('activity.verb.read'),
      download: t('activity.verb.download'),
      update: t('activity.verb.update'),
      delete: t('activity.verb.delete'),
      invite: t('activity.verb.invite'),
    },
    othersOnly: t('activity.othersOnly'),
    person: t('activity.person'),
    anyone: t('activity.anyone'),
    from: t('activity.from'),
    to: t('activity.to'),
    reset: t('activity.reset'),
    empty: t('activity.empty'),
    feed: t('activity.feed'),
    end: t('activity.end'),
    // The label is the service's word for the object ("File"): English runs it into the sentence.
    open: (label: string, name: string) =>
      label
        ? t('activity.openLabeled', {
            label: tr.lang === 'en' ? label.toLowerCase() : label,
            name,
          })
        : t('activity.open', { name }),
    newEvents: (n: number) => t('activity.newEvents', { n }),
  },

  settings: {
    title: t('settings.title'),
    general: t('settings.general'),
    language: t('settings.language'),
    languages: {
      system: t('settings.language.system'),
      en: t('settings.language.en'),
      de: t('settings.language.de'),
    },
    languageHint: t('settings.languageHint'),
    notifications: t('settings.notifications'),
    notificationsHint: t('settings.notificationsHint'),
    startAtLogin: t('settings.startAtLogin'),
    pollInterval: t('settings.pollInterval'),
    pollIntervalHint: (min: number, max: number) => t('settings.pollIntervalHint', { min, max }),
    pollIntervalInvalid: (min: number, max: number) =>
      t('settings.pollIntervalInvalid', { min, max }),
    network: t('settings.network'),
    proxy: t('settings.proxy'),
    proxyPlaceholder: t('settings.proxyPlaceholder'),
    proxyHint: t('settings.proxyHint'),
    /** A proxy URL the backend would refuse (`shared/proxy-url.ts` finds what is wrong). */
    proxyInvalid: (problem: ProxyProblem) =>
      problem.kind === 'scheme'
        ? t('settings.proxyInvalid.scheme', { scheme: problem.scheme })
        : t(`settings.proxyInvalid.${problem.kind}`),
    ignore: t('settings.ignore'),
    ignoreLabel: t('settings.ignoreLabel'),
    ignoreHint: t('settings.ignoreHint'),
    ignoreSave: t('settings.ignoreSave'),
    bandwidth: t('settings.bandwidth'),
    uploadLimit: t('settings.uploadLimit'),
    downloadLimit: t('settings.downloadLimit'),
    limitHint: t('settings.limitHint'),
    limitInvalid: (max: number) => t('settings.limitInvalid', { max }),
    pairs: t('settings.pairs'),
    noPairs: t('settings.noPairs'),
    // The visible "Pause sync" first: a spoken name holds the words shown (WCAG 2.5.3).
    pause: (workspace: string) => t('settings.pause', { workspace }),
    resume: (workspace: string) => t('settings.resume', { workspace }),
    saving: t('settings.saving'),
    saved: t('settings.saved'),
    notSaved: t('settings.notSaved'),
  },

  workspaces: {
    title: t('workspaces.title'),
    empty: t('workspaces.empty'),
    create: t('workspaces.create'),
    name: t('workspaces.name'),
    color: t('workspaces.color'),
    createSubmit: t('workspaces.createSubmit'),
    role: t('workspaces.role'),
    owner: t('workspaces.owner'),
    rename: t('workspaces.rename'),
    renameLabel: (name: string) => t('workspaces.renameLabel', { name }),
    newName: (name: string) => t('workspaces.newName', { name }),
    colorLabel: (name: string) => t('workspaces.colorLabel', { name }),
    delete: t('workspaces.delete'),
    deleteLabel: (name: string) => t('workspaces.deleteLabel', { name }),
    deleteTitle: (name: string) => t('workspaces.deleteTitle', { name }),
    deleteWarning: t('workspaces.deleteWarning'),
    deleteConfirm: (name: string) => t('workspaces.deleteConfirm', { name }),
    deleteSubmit: t('workspaces.deleteSubmit'),
    created: (name: string) => t('workspaces.created', { name }),
    deleted: (name: string) => t('workspaces.deleted', { name }),
    renamed: (name: string) => t('workspaces.renamed', { name }),
  },

  /** Conflicts and problems in a pair's card (views/Attention.tsx; docs/SYNC.md, Conflicts). */
  attention: {
    theirs: t('attention.theirs'),
    mine: t('attention.mine'),
    open: t('attention.open'),
    show: t('attention.show'),
    openLabel: (name: string) => t('attention.openLabel', { name }),
    showLabel: (name: string) => t('attention.showLabel', { name }),
    keepMine: t('attention.keepMine'),
    keepTheirs: t('attention.keepTheirs'),
    keepBoth: t('attention.keepBoth'),
    keepMineLabel: (name: string) => t('attention.keepMineLabel', { name }),
    keepTheirsLabel: (name: string) => t('attention.keepTheirsLabel', { name }),
    keepBothLabel: (name: string) => t('attention.keepBothLabel', { name }),
    keepMineHint: t('attention.keepMineHint'),
    keepTheirsHint: t('attention.keepTheirsHint'),
    keepBothHint: t('attention.keepBothHint'),
    retry: t('attention.retry'),
    dismiss: t('attention.dismiss'),
    retryLabel: (name: string) => t('attention.retryLabel', { name }),
    dismissLabel: (name: string) => t('attention.dismissLabel', { name }),
    unnamed: t('attention.unnamed'),
    dismissedCount: (n: number) => t('attention.dismissedCount', { n }),
  },

  /** Adding a synced folder (SetupPair), for any signed-in account, and its folder picker. */
  setup: {
    addFolder: t('setup.addFolder'),
    account: t('setup.account'),
    accountOption: (email: string, server: string) => t('setup.accountOption', { email, server }),
    alreadySynced: (name: string) => t('setup.alreadySynced', { name }),
    alreadySyncedHint: t('setup.alreadySyncedHint'),
    folderHint: t('setup.folderHint'),
    choose: t('setup.choose'),
    checking: t('setup.checking'),
    /** The folder a new pair gets unless the person changes it; `name` is made safe first. */
    defaultFolder: (name: string) => t('setup.defaultFolder', { name }),
    /** On a pair's card, when several accounts are signed in. */
    accountOf: (email: string) => t('setup.accountOf', { email }),
  },

  picker: {
    title: t('picker.title'),
    path: t('picker.path'),
    home: t('picker.home'),
    up: t('picker.up'),
    upLabel: t('picker.upLabel'),
    folders: (name: string) => t('picker.folders', { name }),
    none: t('picker.none'),
    more: t('picker.more'),
    choose: (name: string) => t('picker.choose', { name }),
    keys: t('picker.keys'),
  },

  accounts: {
    add: t('accounts.add'),
    addTitle: t('accounts.addTitle'),
    others: t('accounts.others'),
    signOutOf: (email: string) => t('accounts.signOutOf', { email }),
  },

  // TODO(i18n): the blocks below came from issue 28's other parts in English.
  // Selective sync: Choose folders (views/FolderSelection.tsx, views/ChooseFoldersDialog.tsx).
  selection: {
    open: 'Choose folders…',
    // Starts with the visible text (axe: label-content-name-mismatch).
    openLabel: (workspace: string) => `Choose folders of ${workspace}…`,
    title: (workspace: string) => `Folders of “${workspace}” to sync`,
    explain:
      'Unticked folders are not synced on this computer. A folder unticked here goes to the trash on this computer, unless something in it was not sent yet; nothing is deleted on the service. Folders made on the service later are synced.',
    legend: 'Folders to sync on this computer',
    none: 'This workspace has no folders: all of it syncs.',
    expand: (name: string) => `Show the folders in ${name}`,
    collapse: (name: string) => `Hide the folders in ${name}`,
    deeper: 'Not synced, deeper down',
    saving: 'Saving…',
  },

  /** People: a workspace's members (views/MembersView.tsx), reached from Workspaces and Browse. */
  members: {
    open: 'Members',
    openLabel: (workspace: string) => `Members of ${workspace}`,
    title: (workspace: string) => `Members of ${workspace}`,
    yourRole: (role: string) => `Your role here: ${role}.`,
    noRole: 'Your role here is not known.',
    list: 'Members',
    name: 'Name',
    email: 'Email',
    role: 'Role',
    actions: 'Actions',
    you: 'you',
    owner: 'Owner',
    pending: 'Invited, not joined yet',
    unnamed: 'No name yet',
    readOnly: 'Your role lets you see the members, not change them.',
    roleOf: (who: string) => `Role of ${who}`,
    change: 'Change',
    changeLabel: (who: string, role: string) => `Make ${who} ${role}`,
    changed: (who: string, role: string) => `${who} is now ${role}.`,
    remove: 'Remove',
    removeLabel: (who: string, workspace: string) => `Remove ${who} from ${workspace}`,
    removeTitle: (who: string, workspace: string) => `Remove ${who} from ${workspace}?`,
    removeExplain: (who: string) =>
      `${who} can no longer see or sync the workspace’s files. What they synced stays on their computers; you can invite them again later.`,
    withdrawLabel: (email: string) => `Withdraw the invitation to ${email}`,
    withdrawTitle: (email: string) => `Withdraw the invitation to ${email}?`,
    withdrawExplain: (email: string) =>
      `${email} can no longer join with this invitation; you can invite them again later.`,
    removeSubmit: 'Remove',
    withdrawSubmit: 'Withdraw',
    removing: 'Removing…',
    removed: (who: string, workspace: string) => `${who} was removed from ${workspace}.`,
    withdrawn: (email: string) => `The invitation to ${email} was withdrawn.`,
    inviteTitle: 'Invite people',
    inviteEmails: 'Email addresses',
    inviteEmailsPlaceholder: 'name@example.com',
    inviteEmailsHint: 'Separate several addresses with commas.',
    inviteRole: 'Role',
    inviteSubmit: 'Invite',
    inviting: 'Inviting…',
    invited: (count: number, role: string) =>
      count === 1 ? `Invited 1 person as ${role}.` : `Invited ${count} people as ${role}.`,
    alreadyMembers: (count: number, emails: string) =>
      count === 1 ? `${emails} is already a member.` : `${emails} are already members.`,
    refused: (count: number, emails: string) =>
      count === 1
        ? `${emails} was not invited: the service did not accept the address.`
        : `${emails} were not invited: the service did not accept the addresses.`,
    rolesTitle: 'What each role may do',
    rolesCaption: 'Each role may also do everything the roles below it may.',
    roleColumn: 'Role',
    mayColumn: 'May',
    yourRoleMark: (role: string) => `${role} (your role)`,
    /** The service's role names, most powerful first (conventions.md, Roles). */
    roleNames: {
      Administrator: 'Administrator',
      Moderator: 'Moderator',
      Collaborator: 'Collaborator',
      Creator: 'Creator',
      Downloader: 'Downloader',
      Printer: 'Printer',
      Viewer: 'Viewer',
    },
    roleMay: {
      Administrator: 'Change the workspace’s settings.',
      Moderator:
        'Invite people and change their roles, change share links, delete any comment, read a file’s history.',
      Collaborator: 'Create, upload, rename, move and delete any folder or file; read share links.',
      Creator: 'Upload and create; delete what they created; comment; download.',
      Downloader: 'List and download files.',
      Printer: 'List files and read their details, without downloading them.',
      Viewer: 'List files and read their details, without downloading or commenting.',
    },
  },

  // Browse like a file manager, and any window size (issue 28, items 1 and 7).
  files: {
    open: 'Open',
    showInFolder: 'Show in folder',
    openInBrowser: 'Open in browser',
    opened: (name: string) => `Opened ${name}.`,
    shown: (name: string) => `Showed ${name} in its folder.`,
    openedInBrowser: (name: string) => `Opened the page of ${name} in your browser.`,
    openFailed: 'Could not open it',
    openFile: (name: string) => `Open ${name}`,
    thumbnail: (name: string) => `Preview of ${name}`,
    offline: 'Offline — showing your synced files',
    offlineHint: 'The service cannot be reached. What was last synced to this computer is shown.',
    offlineNone: 'The service cannot be reached, and no workspace is synced to this computer yet.',
    goOnline: 'Try the service again',
    keys: 'Arrow keys move, Enter opens, Backspace goes up, / searches.',
    up: 'Up one folder',
    details: 'Details',
    size: 'Size',
    type: 'Type',
    modified: 'Modified',
    created: 'Created',
    by: 'Created by',
    version: 'Version',
    unknown: 'Not told by the service',
    folderType: 'Folder',
    /** A file's type from its extension, e.g. "PNG image". */
    types: {
      image: (ext: string) => `${ext} image`,
      video: (ext: string) => `${ext} video`,
      audio: (ext: string) => `${ext} audio`,
      archive: (ext: string) => `${ext} archive`,
      spreadsheet: (ext: string) => `${ext} spreadsheet`,
      presentation: (ext: string) => `${ext} presentation`,
      pdf: () => 'PDF document',
      document: (ext: string) => `${ext} document`,
      code: (ext: string) => `${ext} source file`,
      text: (ext: string) => `${ext} text file`,
      other: (ext: string) => `${ext} file`,
      none: () => 'File',
    },
  },

  layout: {
    openMenu: 'Show the menu',
    closeMenu: 'Hide the menu',
  },

  /** Issue 28, the activity feed as people read it: bursts, days, the person's own reads folded. */
  feed: {
    today: 'Today',
    yesterday: 'Yesterday',
    /**
     * A burst of `n` events of one person: the whole sentence; `did` is the service's verb,
     * `where` the one folder holding them all, else their workspace.
     */
    burst: (who: string, did: string, n: number, kind: 'file' | 'folder', where: string | null) => {
      const items =
        kind === 'file'
          ? n === 1
            ? '1 file'
            : `${n.toLocaleString()} files`
          : n === 1
            ? '1 folder'
            : `${n.toLocaleString()} folders`;
      return where ? `${who} ${did} ${items} in ${where}` : `${who} ${did} ${items}`;
    },
    showOwnReads: 'Show my own downloads and views',
    ownReadsHint:
      'Your syncs download files as you: those downloads, and your views, are folded away unless shown.',
    folded: (n: number) =>
      n === 1
        ? '1 download or view of your own is folded away.'
        : `${n.toLocaleString()} downloads and views of your own are folded away.`,
    showFolded: 'Show them',
  },

  /** Issue 28, diagnostics: the About view. */
  about: {
    title: 'About Workspace Sync',
    version: 'Version',
    system: 'System',
    node: 'Node.js',
    electron: 'Electron',
    noElectron: 'Not in use (this window runs in a browser)',
    pairs: 'Synced folders',
    pairState: (workspace: string, state: string) => `${workspace}: ${state}`,
    logs: 'Logs',
    logsHint:
      'What Workspace Sync did and why, for you or for support. Logs never hold a token or a password.',
    openLogs: 'Open logs',
    diagnostics: 'Diagnostics',
    diagnosticsHint:
      'Copies the versions, each synced folder’s state and its recent problems, to paste into a support request. Never a token, password or email; file, folder, workspace and server names only if you include them.',
    includeNames: 'Include file, folder, workspace and server names',
    copy: 'Copy diagnostics',
    copied: 'Diagnostics copied to the clipboard.',
    copyFailed: 'The diagnostics could not be copied',
    whatWasCopied: 'What was copied',
  },
});

export type Strings = ReturnType<typeof stringsOf>;

/**
 * The window's strings in the current language. `setLanguage` refills this same object in place
 * (views keep `const s = strings.settings` at module level), and the tree re-renders
 * (`Localized.tsx`).
 */
export const strings: Strings = stringsOf(english);
let current: Translator = english;

/** The translator of the window's language (format.ts follows its locale). */
export const currentLanguage = (): Translator => current;

/** Switches the window's language. */
export function setLanguage(lang: Language): void {
  if (current.lang === lang) return;
  current = translator(lang);
  refill(strings, stringsOf(current));
}

type Tree = { [key: string]: unknown };
const isTree = (v: unknown): v is Tree => typeof v === 'object' && v !== null;

function refill(target: Tree, source: Tree): void {
  for (const [key, value] of Object.entries(source)) {
    const held = target[key];
    if (isTree(value) && isTree(held)) refill(held, value);
    else target[key] = value;
  }
}
