import { durationWords, stepWords } from '../shared/progress-words';
import type { ProxyProblem } from '../shared/proxy-url';

/**
 * Every string the window shows, in one place, so wording stays consistent and a translation
 * has one file to work on. Functions take what varies; numbers and dates are formatted by the
 * caller with Intl (format.ts).
 */
export const strings = {
  appName: 'Workspace Sync',
  loading: 'Loading…',
  retry: 'Try again',
  cancel: 'Cancel',
  save: 'Save',
  close: 'Close',
  genericError: 'Something went wrong.',

  nav: {
    label: 'Main',
    status: 'Status',
    browse: 'Browse',
    activity: 'Activity',
    workspaces: 'Workspaces',
    settings: 'Settings',
    about: 'About',
    signOut: 'Sign out',
    signedInAs: (name: string, email: string) =>
      name && name !== email ? `Signed in as ${name} (${email})` : `Signed in as ${email}`,
  },

  signIn: {
    title: 'Sign in to Workspace Sync',
    intro: 'Connect to your Workspace Content Service to keep a folder on this computer in sync.',
    server: 'Server address',
    serverPlaceholder: 'files.example.com',
    email: 'Email',
    password: 'Password',
    submit: 'Sign in',
    submitting: 'Signing in…',
    or: 'or',
    withBrowser: 'Sign in with your browser',
    withBrowserHint: 'Opens the service’s sign-in page in your web browser.',
    // Issue 28 (sign-in as people expect): a bare host is enough.
    serverHint: 'The host name is enough, such as files.example.com.',
    orPassword: 'or sign in with your email and password',
    browserWaiting: 'Finish signing in in the tab that opened…',
    browserOpenAgain: 'Open the sign-in page',
    browserCancel: 'Cancel',
    advanced: 'Advanced',
    token: 'Access token',
    tokenSubmit: 'Sign in with token',
    demo: 'Try the demo',
    demoHint: 'Explore a sample workspace on a local test server. Nothing leaves this computer.',
    serverRequired: 'Enter the address of your server first.',
    failed: 'Sign-in failed',
  },

  status: {
    title: 'Sync status',
    noPairs: 'No folder is being synced yet.',
    setupTitle: 'Choose what to sync',
    workspace: 'Workspace',
    folder: 'Folder on this computer',
    folderPlaceholder: '/home/you/Workspace Sync',
    start: 'Start syncing',
    starting: 'Starting…',
    states: {
      starting: 'Starting…',
      scanning: 'Looking for changes…',
      syncing: 'Syncing…',
      idle: 'Up to date',
      paused: 'Paused',
      offline: 'Offline — will retry',
      error: 'Sync error',
      'needs-attention': 'Needs your attention',
    },
    syncedTo: (dir: string) => `Synced to ${dir}`,
    items: (done: string, total: string) => `${done} of ${total} items`,
    bytes: (done: string, total: string) => `${done} of ${total}`,
    progress: 'Progress',
    current: 'Now',
    /** The pass's speed and time left (PairProgress); the step's words are shared with the CLI. */
    speed: (perSecond: string) => `${perSecond}/s`,
    timeLeft: (duration: string) => `${duration} left`,
    duration: durationWords,
    step: stepWords,
    lastSync: (when: string) => `Last synced ${when}`,
    pause: 'Pause sync',
    resume: 'Resume sync',
    openFolder: 'Open folder',
    /** The answers to deletions held back (the status message says which and how many). */
    held: {
      confirmLocal: 'Delete them on the service too',
      confirmRemote: 'Move them to the trash here',
      keepRemote: 'Keep them and upload them again',
    },
    problems: 'Problems',
    noProblems: 'No problems.',
    conflicts: 'Conflicts',
    noConflicts: 'No conflicts.',
    remove: 'Stop syncing…',
    removeLabel: (workspace: string) => `Stop syncing ${workspace}…`,
    removeTitle: (workspace: string) => `Stop syncing “${workspace}”?`,
    removeExplain: (workspace: string, dir: string) =>
      `Workspace Sync stops keeping ${dir} in sync with the workspace “${workspace}”. The files stay on this computer; nothing is deleted, here or on the server.`,
    removeSubmit: 'Stop syncing',
    removing: 'Stopping…',
  },

  browse: {
    title: 'Browse',
    workspace: 'Workspace',
    breadcrumbs: 'Folder path',
    search: 'Search this folder',
    searchPlaceholder: 'Search',
    sort: 'Sort by',
    sorts: {
      alphabetical: 'Name',
      modified: 'Last modified',
      size: 'Size',
      type: 'Type',
    },
    name: 'Name',
    size: 'Size',
    modified: 'Modified',
    hidden: 'Hidden',
    hiddenHint: 'Hidden by an administrator',
    empty: 'This folder is empty.',
    noMatches: (query: string) => `Nothing matches “${query}”.`,
    noWorkspaces: 'You have no workspaces yet.',
    folder: 'Folder',
    file: 'File',
    openFolder: (name: string) => `Open folder ${name}`,
    details: (name: string) => `Details of ${name}`,
    contents: 'Folder contents',
  },

  menu: {
    label: (name: string) => `Actions for ${name}`,
    copyLink: 'Copy share link',
    details: 'Open details',
    copied: 'Link copied',
  },

  item: {
    panel: (name: string) => `Details: ${name}`,
    close: 'Close details',
    comments: 'Comments',
    noComments: 'No comments yet. Start the conversation.',
    addComment: 'Add a comment',
    mayNotComment: 'Your role in this workspace lets you read comments but not add them.',
    commentPlaceholder: 'Write a comment…',
    post: 'Post',
    posting: 'Posting…',
    deleteComment: 'Delete',
    deleteCommentLabel: (author: string) => `Delete comment by ${author}`,
    unknownAuthor: 'Someone',
    share: 'Share link',
    linkEnabled: 'Anyone with the link can view',
    requirePassword: 'Require a password',
    linkPassword: 'Link password',
    setPassword: 'Set password',
    expires: 'Link expires on',
    noExpiry: 'Never expires',
    clearExpiry: 'Remove expiry',
    copy: 'Copy link',
    copied: (text: string) => `Copied: ${text}`,
    copyFailed: 'The link could not be copied.',
    linkOff: 'Sharing by link is off.',
    audit: 'Audit trail',
    auditHidden: 'The audit trail of a file is shown to Moderators and Administrators only.',
    auditEmpty: 'No recorded activity for this file.',
    zip: 'Download as zip',
    zipTo: 'Save the zip in this folder on this computer (full path)',
    zipToPlaceholder: '/home/you/Downloads',
    zipSubmit: 'Download as zip',
    zipProgress: (bytes: string) => `Downloading… ${bytes} so far`,
    zipSaved: (path: string) => `Saved to ${path}`,
    zipFailed: 'The zip could not be saved',
  },

  activity: {
    title: 'Activity',
    filters: 'Filters',
    workspace: 'Workspace',
    allWorkspaces: 'All workspaces',
    verbs: 'Actions',
    verbNames: {
      create: 'Created',
      upload: 'Uploaded',
      read: 'Viewed',
      download: 'Downloaded',
      update: 'Changed',
      delete: 'Deleted',
      invite: 'Invited',
    },
    othersOnly: 'Only changes by others',
    person: 'Person',
    anyone: 'Anyone',
    from: 'From',
    to: 'To',
    reset: 'Clear filters',
    empty: 'No activity matches these filters.',
    feed: 'Activity feed',
    end: 'That’s everything.',
    open: (label: string, name: string) => `Open ${label ? label.toLowerCase() + ' ' : ''}${name}`,
    newEvents: (n: number) => (n === 1 ? '1 new event' : `${n} new events`),
  },

  settings: {
    title: 'Settings',
    general: 'General',
    notifications: 'Notify me when others change things',
    notificationsHint:
      'Shows a notification when someone else changes your workspaces; a burst of changes is one notification.',
    startAtLogin: 'Start Workspace Sync when I log in',
    pollInterval: 'Check the service for changes every (seconds)',
    pollIntervalHint: (min: number, max: number) =>
      `From ${min} to ${max}. Your own changes are sent at once; this paces others’ changes.`,
    pollIntervalInvalid: (min: number, max: number) =>
      `Choose a whole number of seconds from ${min} to ${max}.`,
    network: 'Network',
    proxy: 'Proxy',
    proxyPlaceholder: 'http://proxy.example.com:3128',
    proxyHint:
      'Empty: the system’s HTTPS_PROXY, HTTP_PROXY and NO_PROXY. Otherwise every request goes through this proxy, http://host:port, with user:password@ before the host if it asks for them. Applies at once.',
    /** A proxy URL the backend would refuse (`shared/proxy-url.ts` finds what is wrong). */
    proxyInvalid: (problem: ProxyProblem) => {
      const example = 'like http://proxy.example.com:3128';
      switch (problem.kind) {
        case 'no-scheme':
          return `Write the proxy as a URL starting with http://, ${example}.`;
        case 'scheme':
          return `Only http:// (or https://) proxies can be used, not ${problem.scheme}://. Write it ${example}.`;
        case 'not-url':
          return `This is not a valid URL: check the host and the port. Write it ${example}.`;
        case 'no-host':
          return `The URL names no host. Write it ${example}.`;
        case 'path':
          return `A proxy is only a host and a port, without a path. Write it ${example}.`;
        case 'no-user':
          return 'There is a password but no user name: write user:password@ before the host.';
      }
    },
    ignore: 'Ignore patterns',
    ignoreLabel: 'Files and folders never synced, one pattern per line',
    ignoreHint:
      'Gitignore syntax, for every synced folder: *.log ignores log files, build/ a folder named build, !keep.log brings a name back. A folder’s own .workspace-sync-ignore applies too. Files already synced stay on the server.',
    ignoreSave: 'Save patterns',
    bandwidth: 'Bandwidth',
    uploadLimit: 'Upload limit (KB/s)',
    downloadLimit: 'Download limit (KB/s)',
    limitHint:
      '0 for no limit. 1 KB is 1,000 bytes; all your synced folders share it, and a change applies at once, to transfers under way too.',
    limitInvalid: (max: number) =>
      `Choose a whole number of KB/s from 0 (no limit) to ${max.toLocaleString('en-US')}.`,
    pairs: 'Synced folders',
    noPairs: 'No folder is being synced yet.',
    // The visible "Pause sync" first: a spoken name holds the words shown (WCAG 2.5.3).
    pause: (workspace: string) => `Pause sync of ${workspace}`,
    resume: (workspace: string) => `Resume sync of ${workspace}`,
    saving: 'Saving…',
    saved: 'Saved',
    notSaved: 'Not saved',
  },

  workspaces: {
    title: 'Workspaces',
    empty: 'You have no workspaces yet. Create one to get started.',
    create: 'New workspace',
    name: 'Name',
    color: 'Color',
    createSubmit: 'Create workspace',
    role: 'Your role',
    owner: 'Owner',
    rename: 'Rename',
    renameLabel: (name: string) => `Rename ${name}`,
    newName: (name: string) => `New name for ${name}`,
    colorLabel: (name: string) => `Color of ${name}`,
    delete: 'Delete',
    deleteLabel: (name: string) => `Delete ${name}`,
    deleteTitle: (name: string) => `Delete “${name}”?`,
    deleteWarning:
      'This deletes the workspace and everything in it for all its members. This cannot be undone.',
    deleteConfirm: (name: string) => `Type ${name} to confirm`,
    deleteSubmit: 'Delete workspace',
    created: (name: string) => `Created ${name}.`,
    deleted: (name: string) => `Deleted ${name}.`,
    renamed: (name: string) => `Renamed to ${name}.`,
  },

  /** Conflicts and problems in a pair's card (views/Attention.tsx; docs/SYNC.md, Conflicts). */
  attention: {
    theirs: 'The service’s version',
    mine: 'Your version',
    open: 'Open',
    show: 'Show in folder',
    openLabel: (name: string) => `Open ${name}`,
    showLabel: (name: string) => `Show in folder: ${name}`,
    keepMine: 'Keep mine',
    keepTheirs: 'Keep theirs',
    keepBoth: 'Keep both',
    keepMineLabel: (name: string) => `Keep mine (your version of ${name})`,
    keepTheirsLabel: (name: string) => `Keep theirs (the service’s version of ${name})`,
    keepBothLabel: (name: string) => `Keep both versions of ${name}`,
    keepMineHint:
      'Your version replaces the service’s (which stays its previous version there); the copy goes away.',
    keepTheirsHint: 'Your copy goes to the trash; the service’s version stays.',
    keepBothHint: 'Both files stay as they are.',
    retry: 'Retry',
    dismiss: 'Dismiss',
    retryLabel: (name: string) => `Retry ${name}`,
    dismissLabel: (name: string) => `Dismiss the problem with ${name}`,
    unnamed: 'this item',
    dismissedCount: (n: number) =>
      n === 1 ? '1 dismissed problem is not shown.' : `${n} dismissed problems are not shown.`,
  },

  /** Adding a synced folder (SetupPair), for any signed-in account, and its folder picker. */
  setup: {
    addFolder: 'Add folder',
    account: 'Account',
    accountOption: (email: string, server: string) => `${email} — ${server}`,
    alreadySynced: (name: string) => `${name} (already synced)`,
    alreadySyncedHint: 'This workspace is already synced to another folder on this computer.',
    folderHint: 'A new folder is created if it does not exist. ~ is your home folder.',
    choose: 'Choose…',
    checking: 'Checking the folder…',
    /** The folder a new pair gets unless the person changes it; `name` is made safe first. */
    defaultFolder: (name: string) => `~/Workspace Sync/${name}`,
    /** On a pair's card, when several accounts are signed in. */
    accountOf: (email: string) => `Account: ${email}`,
  },

  picker: {
    title: 'Choose a folder',
    path: 'Folder path',
    home: 'Home',
    up: 'Up',
    upLabel: 'Up one folder',
    folders: (name: string) => `Folders in ${name}`,
    none: 'No folders here.',
    more: 'Only the first folders are shown; type the path for another.',
    choose: (name: string) => `Choose “${name}”`,
    keys: 'Arrow keys move, Enter opens a folder, Backspace goes up.',
  },

  accounts: {
    add: 'Add account',
    addTitle: 'Add an account',
    others: 'Other accounts',
    signOutOf: (email: string) => `Sign out ${email}`,
  },

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
} as const;
