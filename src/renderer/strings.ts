import {
  english,
  translator,
  type Language,
  type Translator,
  type WireWords,
} from '../shared/i18n';
import { didOf, subjectOf } from '../shared/event-words';
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
  /** Below a list the backend cut at its bound (`Listed`'s `cut`). */
  listCut: (n: number) => t('app.listCut', { n }),
  /** A sentence another process sent as data (the engine's), else the text it came with. */
  say: (words: WireWords | undefined, text: string) => (words ? tr.say(words) : text),

  nav: {
    about: t('nav.about'),
    label: t('nav.label'),
    status: t('nav.status'),
    browse: t('nav.browse'),
    activity: t('nav.activity'),
    workspaces: t('nav.workspaces'),
    settings: t('nav.settings'),
    trash: t('nav.trash'),
    signOut: t('nav.signOut'),
    signedInAs: (name: string, email: string) =>
      name && name !== email
        ? t('nav.signedInAsNamed', { name, email })
        : t('nav.signedInAs', { email }),
    // The account switcher: which account Browse, Activity and Workspaces show.
    account: t('nav.account'),
    signedOut: (email: string) => t('nav.signedOut', { email }),
    sessionOnly: t('nav.sessionOnly'),
    signInAgain: t('nav.signInAgain'),
    accountChoice: (name: string, email: string, host: string) =>
      name && name !== email
        ? t('account.choiceNamed', { name, email, host })
        : t('account.choice', { email, host }),
  },

  signIn: {
    serverHint: t('signIn.serverHint'),
    orPassword: t('signIn.orPassword'),
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
    browserReaching: t('signIn.browserReaching'),
    browserOpenAgain: t('signIn.browserOpenAgain'),
    browserCancel: t('signIn.browserCancel'),
    advanced: t('signIn.advanced'),
    token: t('signIn.token'),
    tokenSubmit: t('signIn.tokenSubmit'),
    demo: t('signIn.demo'),
    demoHint: t('signIn.demoHint'),
    serverRequired: t('signIn.serverRequired'),
    failed: t('signIn.failed'),
    noKeychain: t('signIn.noKeychain'),
    keepLegend: t('signIn.keepLegend'),
    keepSession: t('signIn.keepSession'),
    keepSessionHint: t('signIn.keepSessionHint'),
    keepFile: t('signIn.keepFile'),
    keepFileHint: (file: string) => t('signIn.keepFileHint', { file }),
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
      gone: t('status.state.gone'),
    },
    signedOut: t('status.state.signedOut'),
    lastSuccess: (when: string) => t('status.lastSuccess', { when }),
    neverSynced: t('status.neverSynced'),
    failedWhy: (reason: string) => t('status.failedWhy', { reason }),
    retryNow: t('status.retryNow'),
    goneExplain: (dir: string) => t('status.goneExplain', { dir }),
    signedOutExplain: (email: string) => t('status.signedOutExplain', { email }),
    syncedTo: (dir: string) => t('status.syncedTo', { dir }),
    newFiles: t('status.newFiles'),
    newFilesFull: t('status.newFilesFull'),
    newFilesOnline: t('status.newFilesOnline'),
    newFilesHint: t('status.newFilesHint'),
    newFilesLabel: (workspace: string) => t('status.newFilesLabel', { workspace }),
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
    /** The card's buttons as assistive technology names them: which folder they act on. */
    pauseLabel: (workspace: string) => t('status.pauseLabel', { workspace }),
    resumeLabel: (workspace: string) => t('status.resumeLabel', { workspace }),
    openFolderLabel: (workspace: string) => t('status.openFolderLabel', { workspace }),
    retryLabel: (workspace: string) => t('status.retryLabel', { workspace }),
    /** The answers to deletions held back (the status message says which and how many). */
    held: {
      confirmLocal: t('status.held.confirmLocal'),
      confirmRemote: t('status.held.confirmRemote'),
      keepRemote: t('status.held.keepRemote'),
      confirmLocalLabel: (workspace: string) => t('status.held.confirmLocalLabel', { workspace }),
      confirmRemoteLabel: (workspace: string) => t('status.held.confirmRemoteLabel', { workspace }),
      keepRemoteLabel: (workspace: string) => t('status.held.keepRemoteLabel', { workspace }),
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
    type: t('browse.type'),
    results: t('browse.results'),
    inFolder: (folder: string) => t('browse.inFolder', { folder }),
    found: (n: number) => t('browse.found', { n }),
    foundMore: (n: number) => t('browse.foundMore', { n }),
    searchSynced: t('browse.searchSynced'),
    searchExcluded: (n: number) => t('browse.searchExcluded', { n }),
    searching: (folders: number) => t('browse.searching', { folders }),
    searchDone: (folders: number) => t('browse.searchDone', { folders }),
    searchStopped: (folders: number) => t('browse.searchStopped', { folders }),
    searchCut: (folders: number) => t('browse.searchCut', { folders }),
    searchStop: t('browse.searchStop'),
    states: {
      synced: t('browse.state.synced'),
      syncing: t('browse.state.syncing'),
      excluded: t('browse.state.excluded'),
      problem: t('browse.state.problem'),
    },
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
    linkPassword: t('item.linkPassword'),
    expires: t('item.expires'),
    noExpiry: t('item.noExpiry'),
    clearExpiry: t('item.clearExpiry'),
    copy: t('item.copy'),
    copied: (text: string) => t('item.copied', { text }),
    copyFailed: t('item.copyFailed'),
    linkOff: t('item.linkOff'),
    passwordSet: t('item.passwordSet'),
    passwordNone: t('item.passwordNone'),
    addPassword: t('item.addPassword'),
    changePassword: t('item.changePassword'),
    removePassword: t('item.removePassword'),
    savePassword: t('item.savePassword'),
    cancelPassword: t('item.cancelPassword'),
    saving: t('item.saving'),
    savedOn: t('item.savedOn'),
    savedOff: t('item.savedOff'),
    savedPassword: t('item.savedPassword'),
    savedNoPassword: t('item.savedNoPassword'),
    savedExpires: (date: string) => t('item.savedExpires', { date }),
    savedNoExpiry: t('item.savedNoExpiry'),
    linkReadOnly: t('item.linkReadOnly'),
    linkHidden: t('item.linkHidden'),
    people: t('item.people'),
    peopleHint: t('item.peopleHint'),
    peopleNotAllowed: t('item.peopleNotAllowed'),
    linkOptions: (name: string) => t('item.linkOptions', { name }),
    audit: t('item.audit'),
    auditHidden: t('item.auditHidden'),
    auditEmpty: t('item.auditEmpty'),
    zip: t('item.zip'),
    zipTo: t('item.zipTo'),
    zipToHint: t('item.zipToHint'),
    zipToPlaceholder: t('item.zipToPlaceholder'),
    zipSubmit: t('item.zipSubmit'),
    zipChoose: t('item.zipChoose'),
    zipProgress: (bytes: string) => t('item.zipProgress', { bytes }),
    zipSaved: (path: string) => t('item.zipSaved', { path }),
    zipFailed: t('item.zipFailed'),
  },

  activity: {
    title: t('activity.title'),
    filters: t('activity.filters'),
    /** Beside the folded Filters button: how many narrow the feed. */
    filtersSet: (n: number) => t('activity.filtersSet', { n }),
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
    /** A date field's letters for day, month and year, in this order, space-separated. */
    dateLetters: t('activity.dateLetters'),
    dateHint: (pattern: string) => t('activity.dateHint', { pattern }),
    dateBad: (pattern: string) => t('activity.dateBad', { pattern }),
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
    deleteSynced: (n: number) => t('workspaces.deleteSynced', { n }),
    deleteLocal: t('workspaces.deleteLocal'),
    deleteNotSynced: t('workspaces.deleteNotSynced'),
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
    /** A folder holding files on a first sync: asked before they are merged into the workspace. */
    mergeAsk: (folder: string, n: number, more: boolean, workspace: string) =>
      t('setup.mergeAsk', { folder, n, more: more ? 'yes' : 'no', workspace }),
    merge: t('setup.merge'),
    chooseOther: t('setup.chooseOther'),
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

  /** The sync's trash (views/TrashView.tsx). */
  trash: {
    title: t('trash.title'),
    explain: t('trash.explain'),
    empty: t('trash.empty'),
    from: (path: string, dir: string) => t('trash.from', { path, dir }),
    when: (when: string) => t('trash.when', { when }),
    restore: t('trash.restore'),
    restoreLabel: (name: string) => t('trash.restoreLabel', { name }),
    show: t('trash.show'),
    showLabel: (name: string) => t('trash.showLabel', { name }),
    restored: (name: string, path: string) => t('trash.restored', { name, path }),
  },

  /** Undo after an act that moved something to the trash (views/UndoNotice.tsx). */
  undo: {
    undo: t('undo.undo'),
    commentDeleted: t('undo.commentDeleted'),
    commentUndoLabel: t('undo.commentUndoLabel'),
    commentBack: t('undo.commentBack'),
    keptTheirs: (name: string) => t('undo.keptTheirs', { name }),
    keptMine: (name: string) => t('undo.keptMine', { name }),
    undoLabel: (name: string) => t('undo.undoLabel', { name }),
    undone: (path: string) => t('undo.undone', { path }),
    notInTrash: (name: string) => t('undo.notInTrash', { name }),
  },

  /** Sign out, asked first (views/SignOutDialog.tsx). */
  signOut: {
    title: (email: string) => t('signOut.title', { email }),
    folders: (n: number) => t('signOut.folders', { n }),
    kept: t('signOut.kept'),
    noFolders: t('signOut.noFolders'),
    submit: t('signOut.submit'),
    signingOut: t('signOut.signingOut'),
  },

  // Selective sync: Choose folders (views/FolderSelection.tsx, views/ChooseFoldersDialog.tsx).
  selection: {
    open: t('selection.open'),
    // Starts with the visible text (axe: label-content-name-mismatch).
    openLabel: (workspace: string) => t('selection.openLabel', { workspace }),
    title: (workspace: string) => t('selection.title', { workspace }),
    explain: t('selection.explain'),
    legend: t('selection.legend'),
    none: t('selection.none'),
    expand: (name: string) => t('selection.expand', { name }),
    collapse: (name: string) => t('selection.collapse', { name }),
    deeper: t('selection.deeper'),
    saving: t('selection.saving'),
  },

  /** People: a workspace's members (views/MembersView.tsx), reached from Workspaces and Browse. */
  members: {
    open: t('members.open'),
    openLabel: (workspace: string) => t('members.openLabel', { workspace }),
    title: (workspace: string) => t('members.title', { workspace }),
    yourRole: (role: string) => t('members.yourRole', { role }),
    noRole: t('members.noRole'),
    list: t('members.list'),
    name: t('members.name'),
    email: t('members.email'),
    role: t('members.role'),
    actions: t('members.actions'),
    you: t('members.you'),
    owner: t('members.owner'),
    pending: t('members.pending'),
    unnamed: t('members.unnamed'),
    readOnly: t('members.readOnly'),
    roleOf: (who: string) => t('members.roleOf', { who }),
    change: t('members.change'),
    changeLabel: (who: string, role: string) => t('members.changeLabel', { who, role }),
    changed: (who: string, role: string) => t('members.changed', { who, role }),
    remove: t('members.remove'),
    removeLabel: (who: string, workspace: string) => t('members.removeLabel', { who, workspace }),
    removeTitle: (who: string, workspace: string) => t('members.removeTitle', { who, workspace }),
    removeExplain: (who: string) => t('members.removeExplain', { who }),
    withdrawLabel: (email: string) => t('members.withdrawLabel', { email }),
    withdrawTitle: (email: string) => t('members.withdrawTitle', { email }),
    withdrawExplain: (email: string) => t('members.withdrawExplain', { email }),
    removeSubmit: t('members.removeSubmit'),
    withdrawSubmit: t('members.withdrawSubmit'),
    removing: t('members.removing'),
    removed: (who: string, workspace: string) => t('members.removed', { who, workspace }),
    withdrawn: (email: string) => t('members.withdrawn', { email }),
    inviteTitle: t('members.inviteTitle'),
    inviteEmails: t('members.inviteEmails'),
    inviteEmailsPlaceholder: t('members.inviteEmailsPlaceholder'),
    inviteEmailsHint: t('members.inviteEmailsHint'),
    inviteRole: t('members.inviteRole'),
    inviteSubmit: t('members.inviteSubmit'),
    inviting: t('members.inviting'),
    invited: (count: number, role: string) => t('members.invited', { count, role }),
    alreadyMembers: (count: number, emails: string) =>
      t('members.alreadyMembers', { count, emails }),
    refused: (count: number, emails: string) => t('members.refused', { count, emails }),
    rolesTitle: t('members.rolesTitle'),
    rolesCaption: t('members.rolesCaption'),
    roleColumn: t('members.roleColumn'),
    mayColumn: t('members.mayColumn'),
    yourRoleMark: (role: string) => t('members.yourRoleMark', { role }),
    /** The service's role names, most powerful first (conventions.md, Roles). */
    roleNames: {
      Administrator: t('members.roleName.Administrator'),
      Moderator: t('members.roleName.Moderator'),
      Collaborator: t('members.roleName.Collaborator'),
      Creator: t('members.roleName.Creator'),
      Downloader: t('members.roleName.Downloader'),
      Printer: t('members.roleName.Printer'),
      Viewer: t('members.roleName.Viewer'),
    },
    roleMay: {
      Administrator: t('members.roleMay.Administrator'),
      Moderator: t('members.roleMay.Moderator'),
      Collaborator: t('members.roleMay.Collaborator'),
      Creator: t('members.roleMay.Creator'),
      Downloader: t('members.roleMay.Downloader'),
      Printer: t('members.roleMay.Printer'),
      Viewer: t('members.roleMay.Viewer'),
    },
  },

  // Browse like a file manager, and any window size (issue 28, items 1 and 7).
  files: {
    /** Files on demand (issue 41): an item's state here, its actions, what they did. */
    onDevice: {
      full: t('files.onDevice.full'),
      online: t('files.onDevice.online'),
      partly: t('files.onDevice.partly'),
      pinned: t('files.onDevice.pinned'),
      title: t('files.onDevice.title'),
      count: (online: number, files: number) => t('files.onDevice.count', { online, files }),
    },
    downloadNow: t('files.downloadNow'),
    alwaysKeep: t('files.alwaysKeep'),
    freeUp: t('files.freeUp'),
    freeUpPinned: t('files.freeUpPinned'),
    downloading: (name: string) => t('files.downloading', { name }),
    downloaded: (name: string) => t('files.downloaded', { name }),
    downloadWaits: (name: string) => t('files.downloadWaits', { name }),
    kept: (name: string) => t('files.kept', { name }),
    unkept: (name: string) => t('files.unkept', { name }),
    freed: (name: string) => t('files.freed', { name }),
    onDemandFailed: t('files.onDemandFailed'),
    open: t('files.open'),
    showInFolder: t('files.showInFolder'),
    openInBrowser: t('files.openInBrowser'),
    opened: (name: string) => t('files.opened', { name }),
    shown: (name: string) => t('files.shown', { name }),
    openedInBrowser: (name: string) => t('files.openedInBrowser', { name }),
    openFailed: t('files.openFailed'),
    openFile: (name: string) => t('files.openFile', { name }),
    thumbnail: (name: string) => t('files.thumbnail', { name }),
    offline: t('files.offline'),
    offlineHint: t('files.offlineHint'),
    offlineNone: t('files.offlineNone'),
    goOnline: t('files.goOnline'),
    keys: t('files.keys'),
    up: t('files.up'),
    details: t('files.details'),
    size: t('files.size'),
    type: t('files.type'),
    modified: t('files.modified'),
    created: t('files.created'),
    by: t('files.by'),
    version: t('files.version'),
    unknown: t('files.unknown'),
    folderType: t('files.folderType'),
    /** A file's type from its extension, e.g. "PNG image". */
    types: {
      image: (ext: string) => t('files.type.image', { ext }),
      video: (ext: string) => t('files.type.video', { ext }),
      audio: (ext: string) => t('files.type.audio', { ext }),
      archive: (ext: string) => t('files.type.archive', { ext }),
      spreadsheet: (ext: string) => t('files.type.spreadsheet', { ext }),
      presentation: (ext: string) => t('files.type.presentation', { ext }),
      pdf: () => t('files.type.pdf'),
      document: (ext: string) => t('files.type.document', { ext }),
      code: (ext: string) => t('files.type.code', { ext }),
      text: (ext: string) => t('files.type.text', { ext }),
      other: (ext: string) => t('files.type.other', { ext }),
      none: () => t('files.type.none'),
    },
  },

  layout: {
    openMenu: t('layout.openMenu'),
    closeMenu: t('layout.closeMenu'),
    skip: t('layout.skip'),
  },

  /** Issue 28, the activity feed as people read it: bursts, days, the person's own reads folded. */
  feed: {
    today: t('feed.today'),
    yesterday: t('feed.yesterday'),
    /**
     * A burst of `n` events of one person: the whole sentence; `did` is the service's verb and
     * `who` its subject (said in the language: event-words.ts), `where` the one folder holding
     * them all, else their workspace.
     */
    burst: (who: string, did: string, n: number, kind: 'file' | 'folder', where: string | null) =>
      where
        ? t('feed.burstIn', { who: subjectOf(tr, who), did: didOf(tr, did), n, kind, where })
        : t('feed.burst', { who: subjectOf(tr, who), did: didOf(tr, did), n, kind }),
    showOwnReads: t('feed.showOwnReads'),
    ownReadsHint: t('feed.ownReadsHint'),
    folded: (n: number) => t('feed.folded', { n }),
    showFolded: t('feed.showFolded'),
  },

  /** Issue 28, diagnostics: the About view. */
  about: {
    title: t('about.title'),
    version: t('about.version'),
    system: t('about.system'),
    node: t('about.node'),
    electron: t('about.electron'),
    noElectron: t('about.noElectron'),
    pairs: t('about.pairs'),
    pairState: (workspace: string, state: string) => t('about.pairState', { workspace, state }),
    logs: t('about.logs'),
    logsHint: t('about.logsHint'),
    openLogs: t('about.openLogs'),
    diagnostics: t('about.diagnostics'),
    diagnosticsHint: t('about.diagnosticsHint'),
    includeNames: t('about.includeNames'),
    copy: t('about.copy'),
    copied: t('about.copied'),
    copyFailed: t('about.copyFailed'),
    whatWasCopied: t('about.whatWasCopied'),
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
