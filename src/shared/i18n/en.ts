/**
 * English, the catalog every other language is checked against (`de.ts` has exactly its keys, or
 * the type-check fails). ICU MessageFormat: `{name}` a parameter, `{n, plural, one {…} other {…}}`
 * a count (`#` is the number in the language's digits), `{kind, select, …}` a choice. Keys are
 * grouped by where they are shown: the window's views, the tray, notices, the engine, the CLI.
 */
export const en = {
  // The window (src/renderer/strings.ts gives these to the views).
  'app.name': 'Workspace Sync',
  'app.loading': 'Loading…',
  'app.retry': 'Try again',
  'app.cancel': 'Cancel',
  'app.save': 'Save',
  'app.close': 'Close',
  'app.genericError': 'Something went wrong.',
  'app.connectionLost': 'The connection to Workspace Sync was lost. Reload the page to reconnect.',

  'nav.label': 'Main',
  'nav.status': 'Status',
  'nav.browse': 'Browse',
  'nav.activity': 'Activity',
  'nav.workspaces': 'Workspaces',
  'nav.settings': 'Settings',
  'nav.signOut': 'Sign out',
  'nav.signedInAs': 'Signed in as {email}',
  'nav.signedInAsNamed': 'Signed in as {name} ({email})',

  'signIn.title': 'Sign in to Workspace Sync',
  'signIn.intro':
    'Connect to your Workspace Content Service to keep a folder on this computer in sync.',
  'signIn.server': 'Server address',
  'signIn.serverPlaceholder': 'https://files.example.com/api/v1',
  'signIn.email': 'Email',
  'signIn.password': 'Password',
  'signIn.submit': 'Sign in',
  'signIn.submitting': 'Signing in…',
  'signIn.or': 'or',
  'signIn.withBrowser': 'Sign in with your browser',
  'signIn.withBrowserHint': 'Opens the service’s sign-in page in your web browser.',
  'signIn.browserWaiting': 'Finish signing in in the tab that opened…',
  'signIn.browserOpenAgain': 'Open the sign-in page',
  'signIn.browserCancel': 'Cancel',
  'signIn.advanced': 'Advanced',
  'signIn.token': 'Access token',
  'signIn.tokenSubmit': 'Sign in with token',
  'signIn.demo': 'Try the demo',
  'signIn.demoHint':
    'Explore a sample workspace on a local test server. Nothing leaves this computer.',
  'signIn.serverRequired': 'Enter the address of your server first.',
  'signIn.failed': 'Sign-in failed',

  'status.title': 'Sync status',
  'status.noPairs': 'No folder is being synced yet.',
  'status.setupTitle': 'Choose what to sync',
  'status.workspace': 'Workspace',
  'status.folder': 'Folder on this computer',
  'status.folderPlaceholder': '/home/you/Workspace Sync',
  'status.start': 'Start syncing',
  'status.starting': 'Starting…',
  'status.state.starting': 'Starting…',
  'status.state.scanning': 'Looking for changes…',
  'status.state.syncing': 'Syncing…',
  'status.state.idle': 'Up to date',
  'status.state.paused': 'Paused',
  'status.state.offline': 'Offline — will retry',
  'status.state.error': 'Sync error',
  'status.state.needs-attention': 'Needs your attention',
  'status.syncedTo': 'Synced to {dir}',
  'status.items': '{done} of {total} items',
  'status.bytes': '{done} of {total}',
  'status.progress': 'Progress',
  'status.current': 'Now',
  'status.speed': '{perSecond}/s',
  'status.timeLeft': '{duration} left',
  'status.lastSync': 'Last synced {when}',
  'status.pause': 'Pause sync',
  'status.resume': 'Resume sync',
  'status.openFolder': 'Open folder',
  'status.held.confirmLocal': 'Delete them on the service too',
  'status.held.confirmRemote': 'Move them to the trash here',
  'status.held.keepRemote': 'Keep them and upload them again',
  'status.problems': 'Problems',
  'status.noProblems': 'No problems.',
  'status.conflicts': 'Conflicts',
  'status.noConflicts': 'No conflicts.',
  'status.remove': 'Stop syncing…',
  'status.removeLabel': 'Stop syncing {workspace}…',
  'status.removeTitle': 'Stop syncing “{workspace}”?',
  'status.removeExplain':
    'Workspace Sync stops keeping {dir} in sync with the workspace “{workspace}”. The files stay on this computer; nothing is deleted, here or on the server.',
  'status.removeSubmit': 'Stop syncing',
  'status.removing': 'Stopping…',

  'browse.title': 'Browse',
  'browse.workspace': 'Workspace',
  'browse.breadcrumbs': 'Folder path',
  'browse.search': 'Search this folder',
  'browse.searchPlaceholder': 'Search',
  'browse.sort': 'Sort by',
  'browse.sort.alphabetical': 'Name',
  'browse.sort.modified': 'Last modified',
  'browse.sort.size': 'Size',
  'browse.sort.type': 'Type',
  'browse.name': 'Name',
  'browse.size': 'Size',
  'browse.modified': 'Modified',
  'browse.hidden': 'Hidden',
  'browse.hiddenHint': 'Hidden by an administrator',
  'browse.empty': 'This folder is empty.',
  'browse.noMatches': 'Nothing matches “{query}”.',
  'browse.noWorkspaces': 'You have no workspaces yet.',
  'browse.folder': 'Folder',
  'browse.file': 'File',
  'browse.openFolder': 'Open folder {name}',
  'browse.details': 'Details of {name}',
  'browse.contents': 'Folder contents',

  'menu.label': 'Actions for {name}',
  'menu.copyLink': 'Copy share link',
  'menu.details': 'Open details',
  'menu.copied': 'Link copied',

  'item.panel': 'Details: {name}',
  'item.close': 'Close details',
  'item.comments': 'Comments',
  'item.noComments': 'No comments yet. Start the conversation.',
  'item.addComment': 'Add a comment',
  'item.mayNotComment': 'Your role in this workspace lets you read comments but not add them.',
  'item.commentPlaceholder': 'Write a comment…',
  'item.post': 'Post',
  'item.posting': 'Posting…',
  'item.deleteComment': 'Delete',
  'item.deleteCommentLabel': 'Delete comment by {author}',
  'item.unknownAuthor': 'Someone',
  'item.share': 'Share link',
  'item.linkEnabled': 'Anyone with the link can view',
  'item.requirePassword': 'Require a password',
  'item.linkPassword': 'Link password',
  'item.setPassword': 'Set password',
  'item.expires': 'Link expires on',
  'item.noExpiry': 'Never expires',
  'item.clearExpiry': 'Remove expiry',
  'item.copy': 'Copy link',
  'item.copied': 'Copied: {text}',
  'item.copyFailed': 'The link could not be copied.',
  'item.linkOff': 'Sharing by link is off.',
  'item.audit': 'Audit trail',
  'item.auditHidden': 'The audit trail of a file is shown to Moderators and Administrators only.',
  'item.auditEmpty': 'No recorded activity for this file.',
  'item.zip': 'Download as zip',
  'item.zipTo': 'Save the zip in this folder on this computer (full path)',
  'item.zipToPlaceholder': '/home/you/Downloads',
  'item.zipSubmit': 'Download as zip',
  'item.zipProgress': 'Downloading… {bytes} so far',
  'item.zipSaved': 'Saved to {path}',
  'item.zipFailed': 'The zip could not be saved',

  'activity.title': 'Activity',
  'activity.filters': 'Filters',
  'activity.workspace': 'Workspace',
  'activity.allWorkspaces': 'All workspaces',
  'activity.verbs': 'Actions',
  'activity.verb.create': 'Created',
  'activity.verb.upload': 'Uploaded',
  'activity.verb.read': 'Viewed',
  'activity.verb.download': 'Downloaded',
  'activity.verb.update': 'Changed',
  'activity.verb.delete': 'Deleted',
  'activity.verb.invite': 'Invited',
  'activity.othersOnly': 'Only changes by others',
  'activity.person': 'Person',
  'activity.anyone': 'Anyone',
  'activity.from': 'From',
  'activity.to': 'To',
  'activity.reset': 'Clear filters',
  'activity.empty': 'No activity matches these filters.',
  'activity.feed': 'Activity feed',
  'activity.end': 'That’s everything.',
  'activity.open': 'Open {name}',
  /** `label` is the service's word for the object (e.g. "File"), as it wrote it. */
  'activity.openLabeled': 'Open {label} {name}',
  'activity.newEvents': '{n, plural, one {# new event} other {# new events}}',

  'settings.title': 'Settings',
  'settings.general': 'General',
  'settings.language': 'Language',
  'settings.language.system': 'System',
  'settings.language.en': 'English',
  'settings.language.de': 'Deutsch',
  'settings.languageHint': 'System follows the language of this computer.',
  'settings.notifications': 'Notify me when others change things',
  'settings.notificationsHint':
    'Shows a notification when someone else changes your workspaces; a burst of changes is one notification.',
  'settings.startAtLogin': 'Start Workspace Sync when I log in',
  'settings.pollInterval': 'Check the service for changes every (seconds)',
  'settings.pollIntervalHint':
    'From {min} to {max}. Your own changes are sent at once; this paces others’ changes.',
  'settings.pollIntervalInvalid': 'Choose a whole number of seconds from {min} to {max}.',
  'settings.network': 'Network',
  'settings.proxy': 'Proxy',
  'settings.proxyPlaceholder': 'http://proxy.example.com:3128',
  'settings.proxyHint':
    'Empty: the system’s HTTPS_PROXY, HTTP_PROXY and NO_PROXY. Otherwise every request goes through this proxy, http://host:port, with user:password@ before the host if it asks for them. Applies at once.',
  'settings.proxyInvalid.no-scheme':
    'Write the proxy as a URL starting with http://, like http://proxy.example.com:3128.',
  'settings.proxyInvalid.scheme':
    'Only http:// (or https://) proxies can be used, not {scheme}://. Write it like http://proxy.example.com:3128.',
  'settings.proxyInvalid.not-url':
    'This is not a valid URL: check the host and the port. Write it like http://proxy.example.com:3128.',
  'settings.proxyInvalid.no-host':
    'The URL names no host. Write it like http://proxy.example.com:3128.',
  'settings.proxyInvalid.path':
    'A proxy is only a host and a port, without a path. Write it like http://proxy.example.com:3128.',
  'settings.proxyInvalid.no-user':
    'There is a password but no user name: write user:password@ before the host.',
  'settings.ignore': 'Ignore patterns',
  'settings.ignoreLabel': 'Files and folders never synced, one pattern per line',
  'settings.ignoreHint':
    'Gitignore syntax, for every synced folder: *.log ignores log files, build/ a folder named build, !keep.log brings a name back. A folder’s own .workspace-sync-ignore applies too. Files already synced stay on the server.',
  'settings.ignoreSave': 'Save patterns',
  'settings.bandwidth': 'Bandwidth',
  'settings.uploadLimit': 'Upload limit (KB/s)',
  'settings.downloadLimit': 'Download limit (KB/s)',
  'settings.limitHint':
    '0 for no limit. 1 KB is 1,000 bytes; all your synced folders share it, and a change applies at once, to transfers under way too.',
  'settings.limitInvalid': 'Choose a whole number of KB/s from 0 (no limit) to {max, number}.',
  'settings.pairs': 'Synced folders',
  'settings.noPairs': 'No folder is being synced yet.',
  'settings.pause': 'Pause sync of {workspace}',
  'settings.resume': 'Resume sync of {workspace}',
  'settings.saving': 'Saving…',
  'settings.saved': 'Saved',
  'settings.notSaved': 'Not saved',

  'workspaces.title': 'Workspaces',
  'workspaces.empty': 'You have no workspaces yet. Create one to get started.',
  'workspaces.create': 'New workspace',
  'workspaces.name': 'Name',
  'workspaces.color': 'Color',
  'workspaces.createSubmit': 'Create workspace',
  'workspaces.role': 'Your role',
  'workspaces.owner': 'Owner',
  'workspaces.rename': 'Rename',
  'workspaces.renameLabel': 'Rename {name}',
  'workspaces.newName': 'New name for {name}',
  'workspaces.colorLabel': 'Color of {name}',
  'workspaces.delete': 'Delete',
  'workspaces.deleteLabel': 'Delete {name}',
  'workspaces.deleteTitle': 'Delete “{name}”?',
  'workspaces.deleteWarning':
    'This deletes the workspace and everything in it for all its members. This cannot be undone.',
  'workspaces.deleteConfirm': 'Type {name} to confirm',
  'workspaces.deleteSubmit': 'Delete workspace',
  'workspaces.created': 'Created {name}.',
  'workspaces.deleted': 'Deleted {name}.',
  'workspaces.renamed': 'Renamed to {name}.',

  'attention.theirs': 'The service’s version',
  'attention.mine': 'Your version',
  'attention.open': 'Open',
  'attention.show': 'Show in folder',
  'attention.openLabel': 'Open {name}',
  'attention.showLabel': 'Show in folder: {name}',
  'attention.keepMine': 'Keep mine',
  'attention.keepTheirs': 'Keep theirs',
  'attention.keepBoth': 'Keep both',
  'attention.keepMineLabel': 'Keep mine (your version of {name})',
  'attention.keepTheirsLabel': 'Keep theirs (the service’s version of {name})',
  'attention.keepBothLabel': 'Keep both versions of {name}',
  'attention.keepMineHint':
    'Your version replaces the service’s (which stays its previous version there); the copy goes away.',
  'attention.keepTheirsHint': 'Your copy goes to the trash; the service’s version stays.',
  'attention.keepBothHint': 'Both files stay as they are.',
  'attention.retry': 'Retry',
  'attention.dismiss': 'Dismiss',
  'attention.retryLabel': 'Retry {name}',
  'attention.dismissLabel': 'Dismiss the problem with {name}',
  'attention.unnamed': 'this item',
  'attention.dismissedCount':
    '{n, plural, one {# dismissed problem is not shown.} other {# dismissed problems are not shown.}}',

  'setup.addFolder': 'Add folder',
  'setup.account': 'Account',
  'setup.accountOption': '{email} — {server}',
  'setup.alreadySynced': '{name} (already synced)',
  'setup.alreadySyncedHint': 'This workspace is already synced to another folder on this computer.',
  'setup.folderHint': 'A new folder is created if it does not exist. ~ is your home folder.',
  'setup.choose': 'Choose…',
  'setup.checking': 'Checking the folder…',
  'setup.defaultFolder': '~/Workspace Sync/{name}',
  'setup.accountOf': 'Account: {email}',

  'picker.title': 'Choose a folder',
  'picker.path': 'Folder path',
  'picker.home': 'Home',
  'picker.up': 'Up',
  'picker.upLabel': 'Up one folder',
  'picker.folders': 'Folders in {name}',
  'picker.none': 'No folders here.',
  'picker.more': 'Only the first folders are shown; type the path for another.',
  'picker.choose': 'Choose “{name}”',
  'picker.keys': 'Arrow keys move, Enter opens a folder, Backspace goes up.',

  'accounts.add': 'Add account',
  'accounts.addTitle': 'Add an account',
  'accounts.others': 'Other accounts',
  'accounts.signOutOf': 'Sign out {email}',

  // A pass's progress (src/shared/progress-words.ts): the window, the tray and the CLI.
  'progress.archive':
    '{files, plural, one {Downloading # file in one archive} other {Downloading # files in one archive}}',
  'progress.archiveOf':
    '{files, plural, one {Downloading # file of {name} in one archive} other {Downloading # files of {name} in one archive}}',
  'progress.download': 'Downloading {name}',
  'progress.mkdir': 'Creating the folder {name}',
  'progress.moveUp': 'Moving {name} on the service',
  'progress.moveDown': 'Moving {name} here',
  'progress.trash': 'Moving {name} to the trash',
  'progress.upload': 'Uploading {name}',
  'progress.createFolder': 'Creating {name} on the service',
  'progress.rename': 'Renaming {name} on the service',
  'progress.delete': 'Deleting {name} on the service',
  'progress.bytes': '{n, plural, one {# byte} other {# bytes}}',
  'progress.unit': '{value} {unit}',
  'progress.seconds': 'about {s} s',
  'progress.minutes': 'about {min} min',
  'progress.hours': 'about {h} h',
  'progress.hoursMinutes': 'about {h} h {min} min',
  'progress.perSecond': '{bytes}/s',
  'progress.left': '{duration} left',
  'progress.items': '{n, plural, one {{done} of {total} item} other {{done} of {total} items}}',
  'progress.withRate': '{items} — {rate}',

  // The engine's status line (src/main/sync/loop), sent as a key and parameters (`Words`).
  'engine.starting': 'Starting',
  'engine.paused': 'Paused',
  'engine.upToDate': 'Up to date',
  'engine.sending': 'Sending changes to the service',
  'engine.waitingWritten':
    '{n, plural, one {Waiting for # file to finish being written} other {Waiting for # files to finish being written}}',
  'engine.walkFirst': 'Looking at everything on the service',
  'engine.walkScheduled': 'Checking everything on the service (a regular check)',
  'engine.walkCatchUp':
    '{n, plural, one {Catching up with # change on the service: listing every folder once} other {Catching up with # changes on the service: listing every folder once}}',
  'engine.walkChanges': 'Looking for changes on the service',
  'engine.applying':
    '{n, plural, one {Applying # change from the service} other {Applying # changes from the service}}',
  'engine.syncingItems': '{n, plural, one {Syncing # item} other {Syncing # items}}',
  'engine.backlogArriving':
    '{n, plural, one {# change on the service, still arriving: applied once they stop} other {# changes on the service, still arriving: applied once they stop}}',
  'engine.backlogWalk':
    '{n, plural, one {# change on the service: listing every folder once is quicker than reading each} other {# changes on the service: listing every folder once is quicker than reading each}}',
  'engine.heldLocal':
    '{n, plural, one {# item was removed here: confirm to delete it on the service too} other {# items were removed here: confirm to delete them on the service too}}',
  'engine.heldRemote':
    '{total, plural, one {The service lists {n} of # synced item as deleted: confirm to move them to the trash here, or keep them} other {The service lists {n} of # synced items as deleted: confirm to move them to the trash here, or keep them}}',
  'engine.retryOffline': 'Offline: trying again in {seconds} s',
  'engine.retryAfter': '{problem}: trying again in {seconds} s',
  'engine.signedOut': 'You are signed out: sign in again to continue syncing.',
  'engine.connectionBroke': 'The connection to the service broke ({code}).',
  'engine.diskFull':
    'The disk holding {where} is full: free some space; syncing resumes by itself.',
  'engine.diskFullOnce': 'The disk holding {where} is full: free some space, then sync again.',
  'engine.journalDisk': 'the sync’s journal',
  'engine.syncFolder': 'the sync folder',
  'engine.localAccess': 'The sync folder cannot be written ({code}): check its permissions.',
  'engine.attentionConflicts':
    '{n, plural, one {# conflict to look at} other {# conflicts to look at}}',
  'engine.attentionProblems':
    '{n, plural, one {# problem to look at} other {# problems to look at}}',
  'engine.attentionBoth':
    '{conflicts, plural, one {# conflict} other {# conflicts}} and {problems, plural, one {# problem} other {# problems}} to look at',

  // The tray, notifications and dialogs of the desktop app (src/main/platform).
  'tray.noPairs': 'No folder is syncing',
  'tray.pairWords': '{workspace}: {words}',
  'tray.conflicts': '{n, plural, one {# conflict to look at} other {# conflicts to look at}}',
  'tray.offline': 'Offline: will sync when the service is back',
  'tray.syncing': 'Syncing {progress}',
  'tray.syncingPlain': 'Syncing…',
  'tray.pausedOne': '{workspace}: paused',
  'tray.pausedAll': 'All folders paused',
  'tray.upToDate': 'Up to date',
  'tray.openFolder': 'Open folder',
  'tray.openWindow': 'Open Workspace Sync',
  'tray.resume': 'Resume syncing',
  'tray.pause': 'Pause syncing',
  'tray.quit': 'Quit Workspace Sync',
  'notice.someone': 'Someone',
  'notice.two': '{a} and {b}',
  'notice.many': '{first} and {n, plural, one {# other} other {# others}}',
  'notice.changed': 'changed',
  'notice.items': '{n, plural, one {# item} other {# items}}',
  'notice.things': '{n, plural, one {# thing} other {# things}}',
  /** `verb` is the service's own ("uploaded"), or notice.changed. */
  'notice.burst': '{who} {verb} {what}',
  'notice.burstIn': '{who} {verb} {what} in {workspace}',
  'notice.burstInMany':
    '{who} {verb} {what} in {n, plural, one {# workspace} other {# workspaces}}',
  'notice.conflict':
    '{name} was changed here and on the service: both versions are kept; choose one in Workspace Sync.',
  'notice.conflicts': '{n, plural, one {# conflict to settle} other {# conflicts to settle}}',
  'notice.signedOut': 'signed out: sign in again to continue syncing',
  'notice.diskFull': 'a disk is full: free some space',
  'notice.causes': '{what}.',
  'notice.causesIn': '{what} in {n, plural, one {# folder} other {# folders}}.',
  'dialog.chooseFolder': 'Choose the folder to sync',
  'dialog.choose': 'Choose',
  'dialog.openInBrowser': 'Open in browser',
  'dialog.cancel': 'Cancel',
  'dialog.openAddress': 'Open this address in your browser?',
  'dialog.notSignedIn': 'It is not a page of a service you are signed in to.',
  'dialog.folderFailed': 'The folder dialog could not be shown: type the folder instead.',

  // The CLI (src/main/cli): its help, its lines and its summary, in the language of LANG.
  'cli.usage': `usage: {program} <command> [options]

Syncs a workspace of the Workspace Content Service with a local folder, without the desktop app.

commands:
  login       sign in with email and password; the account is remembered
  logout      forget a remembered account
  workspaces  list the workspaces you can sync
  sync        sync a workspace with a folder, continuously or --once
  status      what the syncs running on this computer are doing (starts none)
  ui          serve the Workspace Sync window to a browser on this computer
  link        print (or --copy) the share link of a synced file or folder
  integrate   add (--install) or remove (--uninstall) "Copy Workspace Sync link" in the
              file managers' menus (Nautilus, Nemo, Dolphin, Thunar)

Run "{program} <command> --help" for a command's options.{sandbox}

environment:
  WORKSPACE_SYNC_STATE          the state directory: settings, journals, logs, trash
                                (now: {state})
  WORKSPACE_SYNC_TOKEN          an access token, used instead of a remembered account
                                (or --token-file PATH; never --token, which ps shows)
  WORKSPACE_SYNC_CLIENT_ID      the OAuth client id (default workspace-sync)
  WORKSPACE_SYNC_CLIENT_SECRET  the OAuth client secret (default sandbox-secret)
  HTTPS_PROXY, HTTP_PROXY       the proxy for https and http servers, http://host:port
                                (lowercase too, read first; --proxy URL wins over both)
  NO_PROXY                      the servers reached without it: names (and the names
                                under them), host:port, IP ranges, or *
  LANG, LC_ALL, LC_MESSAGES     the language of these lines (English, German)

exit status: 0 done, 1 failed, 2 wrong usage, 130 interrupted (status: 3 when no sync runs)`,
  'cli.usageSandbox': ` "workspaces", "sync" and "ui" take
--sandbox instead of --server for an embedded demo sandbox (npm run demo); never without it.`,
  'cli.noCommand': 'no command given',
  'cli.unknownOption': 'unknown option {option}',
  'cli.unknownCommand': 'unknown command "{name}"',
  'cli.seeHelp': 'Run "{command} --help" for the usage.',
  'cli.interrupted': 'interrupted',
  'cli.summary': 'Sync complete: {parts}.',
  'cli.foldersCreated': '{n, plural, one {# folder} other {# folders}} created',
  'cli.filesDownloaded': '{n, plural, one {# file} other {# files}} downloaded ({bytes})',
  'cli.moved': '{n, number} moved',
  'cli.trashed': '{n, number} moved to the trash',
  'cli.sent':
    'sent to the service: {folders, plural, one {# folder} other {# folders}} created, {files, plural, one {# file} other {# files}} uploaded ({bytes}), {moved, number} moved, {deleted, number} deleted',
  'cli.conflicts': '{n, plural, one {# conflict} other {# conflicts}}',
  'cli.problems': '{n, plural, one {# problem} other {# problems}}',
  'cli.requests': '{n, plural, one {# request} other {# requests}}',
  'cli.progressItems': '{done}/{total} items',
  'cli.bytesOf': '{done} of {total}',
  'cli.sandbox': 'Embedded sandbox at {url} (demo workspace {id}, signed in as {email})',
  'cli.problem': 'Problem: {path}: {message}',
  'cli.unknownPath': '(unknown path)',
  'cli.conflict': 'Conflict: {path}: {message}',
  'cli.theFolder': '(the sync folder)',
  'cli.note': 'Note: {message}',
  'cli.stopped': 'Stopped',

  'cli.ago.now': 'just now',
  'cli.ago.seconds': '{n} s ago',
  'cli.ago.minutes': '{n} min ago',
  'cli.ago.hours': '{n} h ago',
  'cli.ago.days': '{n, plural, one {# day ago} other {# days ago}}',
  'cli.status.head': '{dir} ⇄ workspace {id} on {server}',
  'cli.status.headAs': '{dir} ⇄ workspace {id} on {server} as {user}',
  'cli.status.notSynced': 'not synced yet',
  'cli.status.lastSync': 'last sync {ago}',
  'cli.status.pid': 'pid {pid}, running since {since}',
  'cli.status.notRunning':
    'not running: it ended without closing (pid {pid}); last seen {ago}, "{message}"',
  'cli.status.error': 'error: {message}',
  'cli.status.problems': '{n, plural, one {# problem} other {# problems}}:',
  'cli.status.theFolder': '(the folder)',
  'cli.status.more': '… and {n, number} more',
  'cli.status.conflicts':
    '{n, plural, one {# conflict} other {# conflicts}} settled recently (see the log)',
  'cli.status.none': 'No sync is running (state directory {dir}).',

  // The engine's notes of conflicts and its notices (a conflict's words, sent as `Words`).
  'engine.noMoves':
    'This server cannot move items: a moved item is copied to its new place, then deleted from the old one once all of it is there.',
  'engine.notAllCopied': 'Not all of it could be copied: the old place on the service is kept.',
  'engine.movedChangedFile':
    'It changed on the service while it was moved here: the new version is kept at its old place.',
  'engine.movedChangedFolder':
    'It changed on the service while it was moved here: what changed there is kept at its old place.',
  'engine.foldersMerged':
    'A folder of the same name was made on the service too: they were merged.',
  'engine.movedDeleted':
    'It was deleted on the service while it was moved here: it is uploaded again.',
  'engine.moveRefused':
    'Your role does not allow moving or renaming it on the service: it is put back (it was {path}).',
  'engine.nameTaken':
    'The service already has an item named like {from} there (names are compared without regard to case or accents): it was renamed {name}.',
  'engine.deleteRefused': 'Your role does not allow deleting it on the service: it is put back.',
  'engine.nameTakenThere':
    'The name was taken on the service too: both kept; yours is now {aside}.',
  'engine.deletedHereChangedThere':
    'Deleted here while the service added or changed something in it: it is back with that change.',
  'engine.movedThereChangedHere':
    'Moved or renamed on the service to {name} while changed here: the change made here wins.',
  'engine.deletedThereChangedHere':
    'Deleted on the service but changed here: your version is kept and uploaded again.',
  'engine.folderDeletedThere':
    'Deleted on the service while files were added or changed in it here: those are kept and uploaded again.',
  'engine.bothChanged':
    "Changed here and on the service: both kept; the service's version is {theirs}, yours is {yours}.",
  'engine.noNewVersion':
    'Your role in this workspace does not allow downloading its new version: the version here is kept.',
  'engine.noDownload': 'Your role in this workspace does not allow downloading it.',
  'engine.sameName':
    'For the service this is the same name as {other} (they differ only in case or accents): rename one of them to sync it.',
  'engine.changeRefused':
    'Your role in this workspace does not allow this change: it is kept here only.',
  'engine.serviceRefused': 'The service refused it ({reason}): it is kept here only.',
  'cli.tokensInFile':
    'Your tokens are kept in {file}, in plain text that only your user can read (not in a keychain, as --store file asks). "logout" deletes them.',
  'cli.signedIn': 'Signed in as {email} on {server}',
  'cli.signedOut': 'Signed out {email} on {server}',
  'cli.noWorkspaces': 'No workspaces on {server}.',
  'cli.column.id': 'ID',
  'cli.column.name': 'NAME',
  'cli.column.role': 'ROLE',
  'cli.copied': 'Copied the link of {name} to the clipboard ({via}).',
} as const satisfies Record<string, string>;

export type MessageKey = keyof typeof en;
