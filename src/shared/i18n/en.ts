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
  'app.listCut':
    'The service listed more than this window keeps: only the first {n, number} are shown.',

  'nav.label': 'Main',
  'nav.status': 'Status',
  'nav.browse': 'Browse',
  'nav.activity': 'Activity',
  'nav.workspaces': 'Workspaces',
  'nav.settings': 'Settings',
  'nav.trash': 'Trash',
  'nav.signOut': 'Sign out',
  'nav.signedInAs': 'Signed in as {email}',
  'nav.signedInAsNamed': 'Signed in as {name} ({email})',
  // The service no longer accepts the account's sign-in (issue 37): its pairs wait, kept.
  'nav.signedOut': 'Signed out: {email}',
  'nav.sessionOnly': 'Kept for this session only: you sign in again after Workspace Sync stops.',
  'nav.signInAgain': 'Sign in again',
  // The account switcher (Sidebar.tsx), with more than one account signed in.
  'nav.account': 'Account shown',
  'account.choice': '{email} on {host}',
  'account.choiceNamed': '{name} ({email}) on {host}',

  'signIn.title': 'Sign in to Workspace Sync',
  'signIn.intro':
    'Connect to your Workspace Content Service to keep a folder on this computer in sync.',
  'signIn.server': 'Server address',
  'signIn.serverPlaceholder': 'files.example.com',
  'signIn.email': 'Email',
  'signIn.password': 'Password',
  'signIn.submit': 'Sign in',
  'signIn.submitting': 'Signing in…',
  'signIn.or': 'or',
  'signIn.withBrowser': 'Sign in with your browser',
  'signIn.withBrowserHint': 'Opens the service’s sign-in page in your web browser.',
  'signIn.browserWaiting': 'Finish signing in in the tab that opened…',
  'signIn.browserReaching': 'Reaching the server…',
  'signIn.browserOpenAgain': 'Open the sign-in page',
  'signIn.browserCancel': 'Cancel',
  'signIn.advanced': 'Advanced',
  'signIn.token': 'Access token',
  'signIn.tokenSubmit': 'Sign in with token',
  'signIn.demo': 'Try the demo',
  'signIn.demoHint':
    'Explore a sample workspace on a local test server. Nothing leaves this computer.',
  'signIn.serverRequired': 'Enter the address of your server first.',
  'signIn.noKeychain':
    'This computer has no keychain to keep the account in safely. Choose where to keep it:',
  'signIn.keepLegend': 'Keep this account',
  'signIn.keepSession': 'For this session only',
  'signIn.keepSessionHint':
    'Kept in memory and forgotten when this Workspace Sync stops: you sign in again next time.',
  'signIn.keepFile': 'In a file on this computer',
  'signIn.keepFileHint':
    'Kept in {file}, readable by you only (permissions 0600) but not encrypted: the token is stored there in plain text.',
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
  'status.state.offline': 'Offline: the service is not available',
  'status.state.error': 'Sync error',
  'status.state.needs-attention': 'Needs your attention',
  'status.state.gone': 'This workspace was deleted or is no longer shared with you',
  'status.state.signedOut': 'Signed out',
  'status.newFiles': 'New files from the service',
  'status.newFilesFull': 'Download them in full',
  'status.newFilesOnline': 'Keep them online only (downloaded when opened)',
  'status.newFilesHint':
    'Applies to files that arrive from now on: files already here, and those online only, stay as they are.',
  'status.newFilesLabel': 'New files from the service ({workspace})',
  'status.syncedTo': 'Synced to {dir}',
  'status.items': '{done} of {total} items',
  'status.bytes': '{done} of {total}',
  'status.progress': 'Progress',
  'status.current': 'Now',
  'status.speed': '{perSecond}/s',
  'status.timeLeft': '{duration} left',
  'status.lastSync': 'Last synced {when}',
  // In a failed state: the end of the last pass that succeeded, not of the attempt.
  'status.lastSuccess': 'Last successful sync {when}',
  'status.neverSynced': 'Not synced yet',
  'status.failedWhy': 'Why: {reason}',
  'status.retryNow': 'Retry now',
  'status.goneExplain':
    'Syncing stopped. The files in {dir} stay on this computer as they are. Stop syncing to remove this folder from the list; it keeps the files.',
  'status.signedOutExplain':
    'The service no longer accepts the sign-in of {email}. This folder is kept and syncs again once you sign in again.',
  'status.pause': 'Pause sync',
  'status.resume': 'Resume sync',
  'status.openFolder': 'Open folder',
  'status.pauseLabel': 'Pause sync of {workspace}',
  'status.resumeLabel': 'Resume sync of {workspace}',
  'status.openFolderLabel': 'Open folder of {workspace}',
  'status.retryLabel': 'Retry now: {workspace}',
  'status.held.confirmLocal': 'Delete them on the service too',
  'status.held.confirmRemote': 'Move them to the trash here',
  'status.held.keepRemote': 'Keep them and upload them again',
  'status.held.confirmLocalLabel': 'Delete them on the service too: {workspace}',
  'status.held.confirmRemoteLabel': 'Move them to the trash here: {workspace}',
  'status.held.keepRemoteLabel': 'Keep them and upload them again: {workspace}',
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
  'browse.search': 'Search this workspace',
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
  'browse.type': 'Type',
  'browse.results': 'Search results',
  'browse.inFolder': 'in {folder}',
  'browse.found': '{n, plural, =0 {Nothing found.} one {# item found.} other {# items found.}}',
  'browse.foundMore': 'The first {n} items found: type more to narrow the search.',
  'browse.searchSynced': 'Searched what is synced to this computer.',
  'browse.searchExcluded':
    '{n, plural, one {# folder is} other {# folders are}} left out on this computer and not searched.',
  'browse.searching':
    'Searching the service: {folders, plural, one {# folder} other {# folders}} looked at so far.',
  'browse.searchDone':
    'Looked at every folder ({folders, plural, one {# folder} other {# folders}}).',
  'browse.searchStopped':
    'Stopped after {folders, plural, one {# folder} other {# folders}}: folders not looked at may hold more.',
  'browse.searchCut':
    'Stopped at {folders, plural, one {# folder} other {# folders}}, as far as a search through the service goes: the folders not looked at may hold more.',
  'browse.searchStop': 'Stop',
  'browse.state.synced': 'Synced',
  'browse.state.syncing': 'Syncing: not on this computer yet',
  'browse.state.excluded': 'Left out: not synced on this computer',
  'browse.state.problem': 'Could not be synced: Status says why',

  'menu.label': 'Actions for {name}',
  'menu.copyLink': 'Copy share link',
  'menu.details': 'Open details',
  'menu.copied': 'Link copied',

  // File operations in Browse (issue 42).
  'edit.upload': 'Upload files',
  'edit.uploadHint': 'Or drop files and folders from your computer onto the list.',
  'edit.uploadFolder': 'Upload a folder',
  'edit.newFolder': 'New folder',
  'edit.newFolderTitle': 'New folder in {folder}',
  'edit.folderName': 'Folder name',
  'edit.create': 'Create',
  'edit.rename': 'Rename…',
  'edit.renameTitle': 'Rename {name}',
  'edit.newName': 'New name',
  'edit.renameAction': 'Rename',
  'edit.moveTo': 'Move to…',
  'edit.moveTitle': '{n, plural, one {Move {name}} other {Move # items}}',
  'edit.moveHere': 'Move to {folder}',
  'edit.moveFolders': 'Folders in {folder}',
  'edit.moveUp': 'Up to {folder}',
  'edit.moveKeys': 'Arrows choose a folder, Enter opens it, Backspace goes up.',
  'edit.delete': 'Delete…',
  'edit.deleteTitle': '{n, plural, one {Delete {name}?} other {Delete # items?}}',
  'edit.deleteSays':
    '{n, plural, one {It is deleted on the service for everyone in the workspace, with everything it holds.} other {They are deleted on the service for everyone in the workspace, with everything they hold.}} The service keeps no trash: it cannot be restored from there.',
  'edit.deleteSynced':
    'On computers that sync this workspace, Workspace Sync moves its copies to its own Trash at the next sync, where they can be restored.',
  'edit.deleteAction': 'Delete on the service',
  'edit.selected': '{n, plural, one {# item selected} other {# items selected}}',
  'edit.clearSelection': 'Clear selection',
  'edit.selectHint': 'Ctrl+click or Ctrl+Space adds an item, Shift+click or Shift+arrows a range.',
  'edit.select': 'Select {name}',
  'edit.created': 'Folder {name} created.',
  'edit.renamed': 'Renamed to {name}.',
  'edit.moved': '{n, plural, one {Moved # item to {folder}.} other {Moved # items to {folder}.}}',
  'edit.deleted': '{n, plural, one {Deleted # item.} other {Deleted # items.}}',
  'edit.uploading': 'Uploading {name}: {done} of {total}',
  'edit.uploaded': '{n, plural, one {Uploaded # file.} other {Uploaded # files.}}',
  'edit.uploadFailed': 'Could not upload {name}',
  'edit.failed': 'Not done',
  'edit.itemFailed': '{name}: {why}',
  'edit.dropHere': 'Drop files to upload them to {folder}',
  'edit.nameTaken': 'The name {name} is already taken in this folder: choose another.',
  'edit.nameEmpty': 'Type a name.',
  'edit.nameSlash': 'A name cannot contain / or \\.',
  'edit.roleRefused': 'Your role in this workspace does not allow this.',
  'edit.gone': '{name} is no longer there: someone may have moved or deleted it.',
  'edit.offline': 'The service cannot be reached: nothing was changed. Try again when online.',
  'edit.moveUnsupported':
    'This service cannot move items: download them and upload them in the new folder instead.',
  'edit.intoItself': 'A folder cannot be moved into itself or a folder inside it.',
  'edit.uploadGone': 'That upload is no longer waiting: start it again.',
  'edit.uploadTooLong': 'The upload sent more bytes than it said it had: start it again.',
  'edit.uploadShort': 'The upload stopped before all of its bytes came: start it again.',
  'edit.noCreate':
    'Your role here ({role}) may not add files or folders: ask an administrator for Creator or above.',
  'edit.noChange':
    'Your role here ({role}) may not rename, move or delete: ask an administrator for Collaborator or above.',
  'edit.noDeleteOthers':
    'Your role here ({role}) may delete only what you added: ask an administrator for Collaborator or above.',
  'edit.offlineOnly': 'Not available offline: Browse shows the synced copy.',
  'edit.roleUnknown': 'Your role in this workspace is not known yet.',

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
  'item.linkPassword': 'Link password',
  'item.expires': 'Link expires on',
  'item.noExpiry': 'Never expires',
  'item.clearExpiry': 'Remove expiry',
  'item.copy': 'Copy link',
  'item.copied': 'Copied: {text}',
  'item.copyFailed': 'The link could not be copied.',
  'item.linkOff': 'Sharing by link is off.',
  'item.passwordSet': 'A password is set (it is never shown).',
  'item.passwordNone': 'No password is set.',
  'item.addPassword': 'Set a password',
  'item.changePassword': 'Change password',
  'item.removePassword': 'Remove password',
  'item.savePassword': 'Save password',
  'item.cancelPassword': 'Cancel',
  'item.saving': 'Saving…',
  'item.savedOn': 'Saved: anyone with the link can view it.',
  'item.savedOff': 'Saved: the link is off.',
  'item.savedPassword': 'Saved: the link asks for its password.',
  'item.savedNoPassword': 'Saved: the link asks for no password.',
  'item.savedExpires': 'Saved: the link expires at the end of {date}.',
  'item.savedNoExpiry': 'Saved: the link never expires.',
  'item.linkReadOnly': "Only Moderators and above can change a link's settings.",
  'item.linkHidden':
    'Your role does not show share links: Collaborators and above see them, Moderators and above change them.',
  'item.people': 'Share with people',
  'item.peopleHint': 'Separate several addresses with commas. Each is invited with this role.',
  'item.peopleNotAllowed': 'Only Moderators and above can invite people.',
  'item.linkOptions': 'Link options: {name}',
  'item.audit': 'Audit trail',
  'item.auditHidden': 'The audit trail of a file is shown to Moderators and Administrators only.',
  'item.auditEmpty': 'No recorded activity for this file.',
  'item.zip': 'Download as zip',
  'item.zipTo': 'Where to save the zip on this computer',
  'item.zipToHint':
    'A folder (the zip is named after this folder) or a file name; ~ is your home folder.',
  'item.zipToPlaceholder': '~/Downloads',
  'item.zipSubmit': 'Download as zip',
  'item.zipChoose': 'Download as zip…',
  'item.zipProgress': 'Downloading… {bytes} so far',
  'item.zipSaved': 'Saved to {path}',
  'item.zipFailed': 'The zip could not be saved',

  'activity.title': 'Activity',
  'activity.filters': 'Filters',
  'activity.filtersSet': '{n, plural, one {# filter set} other {# filters set}}',
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
  'activity.dateLetters': 'dd mm yyyy',
  'activity.dateHint': 'as {pattern}',
  'activity.dateBad': 'Not a date: type it as {pattern}.',
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
  'workspaces.deleteSynced':
    '{n, plural, one {It is synced on this computer, in this folder:} other {It is synced on this computer, in these # folders:}}',
  'workspaces.deleteLocal':
    'The local copy stays on this computer as it is: syncing stops, nothing there is deleted, and Status then offers Stop syncing.',
  'workspaces.deleteNotSynced': 'It is not synced on this computer.',
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
  'setup.mergeAsk':
    '{more, select, yes {{folder} already holds more than {n, number} items.} other {{n, plural, one {{folder} already holds # item.} other {{folder} already holds # items.}}}} Syncing it uploads them into “{workspace}”, next to what the workspace holds.',
  'setup.merge': 'Merge',
  'setup.chooseOther': 'Choose another folder',

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
  'trash.title': 'Trash',
  'trash.explain':
    'What syncing moved out of your synced folders on this computer: deleted on the server, replaced by Keep mine or Keep theirs, or in a folder no longer synced here. Restore puts an item back in its folder, and it syncs again.',
  'trash.empty': 'The trash is empty.',
  'trash.from': 'Was {path} in {dir}',
  'trash.when': 'Moved to the trash {when}',
  'trash.restore': 'Restore',
  'trash.restoreLabel': 'Restore {name}',
  'trash.show': 'Show',
  'trash.showLabel': 'Show {name} in the file manager',
  'trash.restored': 'Restored {name}: it is {path} again.',
  'undo.undo': 'Undo',
  'undo.commentDeleted': 'Comment deleted.',
  'undo.commentUndoLabel': 'Undo: post the deleted comment again',
  'undo.commentBack': 'Posted again, as a new comment of now.',
  'undo.keptTheirs': 'Kept theirs for {name}: your copy is in the Trash.',
  'undo.keptMine': 'Kept mine for {name}: the version it replaced is in the Trash.',
  'undo.undoLabel': 'Undo: put {name} back from the Trash',
  'undo.undone': 'Put back from the Trash: {path}. It syncs as a new file.',
  'undo.notInTrash': '{name} is no longer in the Trash.',
  'signOut.title': 'Sign out {email}?',
  'signOut.folders':
    '{n, plural, one {This folder stops syncing:} other {These # folders stop syncing:}}',
  'signOut.kept':
    'Their files stay on this computer; nothing is deleted, here or on the server. To sync them again, sign in and choose them again.',
  'signOut.noFolders':
    'No folder syncs with this account on this computer. Nothing is deleted, here or on the server.',
  'signOut.submit': 'Sign out',
  'signOut.signingOut': 'Signing out…',

  // Issue 28's parts: sign-in hints, Choose folders, Members, file manager, feed, About.
  'nav.about': 'About',
  'signIn.serverHint': 'The host name is enough, such as files.example.com.',
  'signIn.orPassword': 'or sign in with your email and password',

  'selection.open': 'Choose folders…',
  'selection.openLabel': 'Choose folders of {workspace}…',
  'selection.title': 'Folders of “{workspace}” to sync',
  'selection.explain':
    'Unticked folders are not synced on this computer. A folder unticked here goes to the trash on this computer, unless something in it was not sent yet; nothing is deleted on the service. Folders made on the service later are synced.',
  'selection.legend': 'Folders to sync on this computer',
  'selection.none': 'This workspace has no folders: all of it syncs.',
  'selection.expand': 'Show the folders in {name}',
  'selection.collapse': 'Hide the folders in {name}',
  'selection.deeper': 'Not synced, deeper down',
  'selection.saving': 'Saving…',

  'members.open': 'Members',
  'members.openLabel': 'Members of {workspace}',
  'members.title': 'Members of {workspace}',
  'members.yourRole': 'Your role here: {role}.',
  'members.noRole': 'Your role here is not known.',
  'members.list': 'Members',
  'members.name': 'Name',
  'members.email': 'Email',
  'members.role': 'Role',
  'members.actions': 'Actions',
  'members.you': 'you',
  'members.owner': 'Owner',
  'members.pending': 'Invited, not joined yet',
  'members.unnamed': 'No name yet',
  'members.readOnly': 'Your role lets you see the members, not change them.',
  'members.roleOf': 'Role of {who}',
  'members.change': 'Change',
  'members.changeLabel': 'Make {who} {role}',
  'members.changed': '{who} is now {role}.',
  'members.remove': 'Remove',
  'members.removeLabel': 'Remove {who} from {workspace}',
  'members.removeTitle': 'Remove {who} from {workspace}?',
  'members.removeExplain':
    '{who} can no longer see or sync the workspace’s files. What they synced stays on their computers; you can invite them again later.',
  'members.withdrawLabel': 'Withdraw the invitation to {email}',
  'members.withdrawTitle': 'Withdraw the invitation to {email}?',
  'members.withdrawExplain':
    '{email} can no longer join with this invitation; you can invite them again later.',
  'members.removeSubmit': 'Remove',
  'members.withdrawSubmit': 'Withdraw',
  'members.removing': 'Removing…',
  'members.removed': '{who} was removed from {workspace}.',
  'members.withdrawn': 'The invitation to {email} was withdrawn.',
  'members.inviteTitle': 'Invite people',
  'members.inviteEmails': 'Email addresses',
  'members.inviteEmailsPlaceholder': 'name@example.com',
  'members.inviteEmailsHint': 'Separate several addresses with commas.',
  'members.inviteRole': 'Role',
  'members.inviteSubmit': 'Invite',
  'members.inviting': 'Inviting…',
  'members.invited':
    '{count, plural, one {Invited # person as {role}.} other {Invited # people as {role}.}}',
  'members.alreadyMembers':
    '{count, plural, one {{emails} is already a member.} other {{emails} are already members.}}',
  'members.refused':
    '{count, plural, one {{emails} was not invited: the service did not accept the address.} other {{emails} were not invited: the service did not accept the addresses.}}',
  'members.rolesTitle': 'What each role may do',
  'members.rolesCaption': 'Each role may also do everything the roles below it may.',
  'members.roleColumn': 'Role',
  'members.mayColumn': 'May',
  'members.yourRoleMark': '{role} (your role)',
  'members.roleName.Administrator': 'Administrator',
  'members.roleName.Moderator': 'Moderator',
  'members.roleName.Collaborator': 'Collaborator',
  'members.roleName.Creator': 'Creator',
  'members.roleName.Downloader': 'Downloader',
  'members.roleName.Printer': 'Printer',
  'members.roleName.Viewer': 'Viewer',
  'members.roleMay.Administrator': 'Change the workspace’s settings.',
  'members.roleMay.Moderator':
    'Invite people and change their roles, change share links, delete any comment, read a file’s history.',
  'members.roleMay.Collaborator':
    'Create, upload, rename, move and delete any folder or file; read share links.',
  'members.roleMay.Creator': 'Upload and create; delete what they created; comment; download.',
  'members.roleMay.Downloader': 'List and download files.',
  'members.roleMay.Printer': 'List files and read their details, without downloading them.',
  'members.roleMay.Viewer': 'List files and read their details, without downloading or commenting.',

  // Files on demand in Browse (issue 41): an item's badge, its menu's and panel's actions.
  'files.onDevice.full': 'On this device',
  'files.onDevice.online': 'Online only',
  'files.onDevice.partly': 'Partly on this device',
  'files.onDevice.pinned': 'Always kept on this device',
  'files.onDevice.title': 'On this device',
  'files.onDevice.count':
    '{online, number} of {files, plural, one {# file} other {# files}} online only',
  'files.downloadNow': 'Download now',
  'files.alwaysKeep': 'Always keep on this device',
  'files.freeUp': 'Free up space',
  'files.freeUpPinned': 'Turn off “Always keep on this device” to free up its space.',
  'files.downloading': 'Downloading {name}…',
  'files.downloaded': '{name} is on this device now.',
  'files.downloadWaits':
    '{name} is not downloaded yet: it comes down with the next sync of this workspace (Status says what it waits for).',
  'files.kept': '{name} is always kept on this device now.',
  'files.unkept':
    '{name} is no longer always kept: it stays on this device until you free up its space.',
  'files.freed': 'Freed up space: {name} is online only now. Download now brings it back.',
  'files.onDemandFailed': 'Not done',
  'files.open': 'Open',
  'files.showInFolder': 'Show in folder',
  'files.openInBrowser': 'Open in browser',
  'files.opened': 'Opened {name}.',
  'files.shown': 'Showed {name} in its folder.',
  'files.openedInBrowser': 'Opened the page of {name} in your browser.',
  'files.openFailed': 'Could not open it',
  'files.openFile': 'Open {name}',
  'files.thumbnail': 'Preview of {name}',
  'files.offline': 'Offline: the service is not available',
  'files.offlineHint': 'What was last synced to this computer is shown.',
  'files.offlineNone': 'No workspace is synced to this computer yet.',
  'files.goOnline': 'Retry now',
  'files.keys': 'Arrow keys move, Enter opens, Backspace goes up, / searches.',
  'files.up': 'Up one folder',
  'files.details': 'Details',
  'files.size': 'Size',
  'files.type': 'Type',
  'files.modified': 'Modified',
  'files.created': 'Created',
  'files.by': 'Created by',
  'files.version': 'Version',
  'files.unknown': 'Not told by the service',
  'files.folderType': 'Folder',
  'files.type.image': '{ext} image',
  'files.type.video': '{ext} video',
  'files.type.audio': '{ext} audio',
  'files.type.archive': '{ext} archive',
  'files.type.spreadsheet': '{ext} spreadsheet',
  'files.type.presentation': '{ext} presentation',
  'files.type.pdf': 'PDF document',
  'files.type.document': '{ext} document',
  'files.type.code': '{ext} source file',
  'files.type.text': '{ext} text file',
  'files.type.other': '{ext} file',
  'files.type.none': 'File',

  'layout.openMenu': 'Show the menu',
  'layout.closeMenu': 'Hide the menu',
  'layout.skip': 'Skip to content',

  'feed.today': 'Today',
  'feed.yesterday': 'Yesterday',
  'feed.burst':
    '{who} {did} {kind, select, file {{n, plural, one {# file} other {# files}}} other {{n, plural, one {# folder} other {# folders}}}}',
  'feed.burstIn':
    '{who} {did} {kind, select, file {{n, plural, one {# file} other {# files}}} other {{n, plural, one {# folder} other {# folders}}}} in {where}',
  'feed.showOwnReads': 'Show my own downloads and views',
  'feed.ownReadsHint':
    'Your syncs download files as you: those downloads, and your views, are folded away unless shown.',
  'feed.folded':
    '{n, plural, one {# download or view of your own is folded away.} other {# downloads and views of your own are folded away.}}',
  'feed.showFolded': 'Show them',

  // An event's sentence in the window's language (src/shared/event-words.ts): the service writes
  // it in English; `{object}` and the like are the object's name, the rest is the language's.
  // English is said as the service wrote it: these are its words, the reference for others.
  'event.someone': 'Someone with the link',
  'event.label':
    '{kind, select, file {File} folder {Folder} workspace {Workspace} other {{label}}}',
  'event.named': '{name} {label}',
  'event.object.acc':
    '{kind, select, file {the {name} File} folder {the {name} Folder} workspace {the {name} Workspace} other {the {name} {label}}}',
  'event.object.dat':
    '{kind, select, file {the {name} File} folder {the {name} Folder} workspace {the {name} Workspace} other {the {name} {label}}}',
  'event.object.zu':
    '{kind, select, file {the {name} File} folder {the {name} Folder} workspace {the {name} Workspace} other {the {name} {label}}}',
  'event.object.in':
    '{kind, select, file {the {name} File} folder {the {name} Folder} workspace {the {name} Workspace} other {the {name} {label}}}',
  'event.compact': '{object}{c, select, none {} other { {complement}}}',
  'event.complement.from': 'from {name}',
  'event.complement.movedFrom': 'from {name}',
  'event.complement.invited': '{email} as {role}',
  'event.complement.role': '{member} from {from} to {to}',
  'event.complement.quote': '"{text}"',
  'event.did.created': 'created',
  'event.did.uploaded': 'uploaded',
  'event.did.viewed': 'viewed',
  'event.did.downloaded': 'downloaded',
  'event.did.updated': 'updated',
  'event.did.deleted': 'deleted',
  'event.did.renamed': 'renamed',
  'event.did.moved': 'moved',
  'event.did.commented': 'commented on',
  'event.did.commentDeleted': 'deleted a comment on',
  'event.did.linkUpdated': 'updated the link of',
  'event.did.invited': 'invited a user to',
  'event.did.memberRemoved': 'removed a member from',
  'event.did.roleChanged': 'changed a role in',
  'event.line.created': '{subject} created {object}{c, select, none {} other { {complement}}}',
  'event.line.uploaded': '{subject} uploaded {object}{c, select, none {} other { {complement}}}',
  'event.line.viewed': '{subject} viewed {object}{c, select, none {} other { {complement}}}',
  'event.line.downloaded':
    '{subject} downloaded {object}{c, select, none {} other { {complement}}}',
  'event.line.updated':
    '{subject} updated {c, select, from {{before} to {name}} none {{object}} other {{object} {complement}}}',
  'event.line.deleted': '{subject} deleted {object}{c, select, none {} other { {complement}}}',
  'event.line.renamed':
    '{subject} renamed {c, select, from {{before} to {name}} none {{object}} other {{object} {complement}}}',
  'event.line.moved': '{subject} moved {object}{c, select, none {} other { {complement}}}',
  'event.line.commented':
    '{subject} commented on {object}{c, select, none {} other { {complement}}}',
  'event.line.commentDeleted':
    '{subject} deleted a comment on {objectZu}{c, select, none {} other { {complement}}}',
  'event.line.linkUpdated':
    '{subject} updated the link of {objectZu}{c, select, none {} other { {complement}}}',
  'event.line.invited':
    '{subject} invited a user to {object}{c, select, none {} other { {complement}}}',
  'event.line.memberRemoved':
    '{subject} removed a member from {objectDat}{c, select, none {} other { {complement}}}',
  'event.line.roleChanged':
    '{subject} changed a role in {objectIn}{c, select, none {} other { {complement}}}',
  'event.line.other':
    '{subject} {predicate}{o, select, none {} other { {object}}}{c, select, none {} other { {complement}}}',

  'about.title': 'About Workspace Sync',
  'about.version': 'Version',
  'about.system': 'System',
  'about.node': 'Node.js',
  'about.electron': 'Electron',
  'about.noElectron': 'Not in use (this window runs in a browser)',
  'about.pairs': 'Synced folders',
  'about.pairState': '{workspace}: {state}',
  'about.logs': 'Logs',
  'about.logsHint':
    'What Workspace Sync did and why, for you or for support. Logs never hold a token or a password.',
  'about.openLogs': 'Open logs',
  'about.diagnostics': 'Diagnostics',
  'about.diagnosticsHint':
    'Copies the versions, each synced folder’s state and its recent problems, to paste into a support request. Never a token, password or email; file, folder, workspace and server names only if you include them.',
  'about.includeNames': 'Include file, folder, workspace and server names',
  'about.copy': 'Copy diagnostics',
  'about.copied': 'Diagnostics copied to the clipboard.',
  'about.copyFailed': 'The diagnostics could not be copied',
  'about.whatWasCopied': 'What was copied',

  // The window's backend refusals (src/main/backend): sent as `Words` in AppError.words.
  'backend.generic': 'Something went wrong in Workspace Sync; the log has the details.',
  'backend.invalidRequest': 'Invalid request to {method}: {issues}.',
  'backend.badRequest': 'A request is JSON with "id", "method" and "params".',
  'backend.noMethod': 'There is no method "{method}".',
  'backend.shuttingDown': 'Workspace Sync is shutting down.',
  'backend.browserReplaced': 'A newer sign-in through the browser replaced this one.',
  'backend.badDate':
    '{field, select, expiry {The expiry} from {From} other {To}} is not a valid date and time.',
  'backend.demoOnlySandbox': 'The demo is available only when started with --sandbox.',
  'backend.noFileManager':
    'No program to open folders was found on this computer: the folder is {dir}; open it in your file manager.',
  'backend.noFileManagerLogs':
    'No program to open folders was found on this computer: the logs are in {dir}; open it in your file manager.',
  'backend.openFailed':
    '{program} could not open {path} (it ended with code {code}): open it in your file manager, or set a default program for it.',
  'backend.systemOpenFailed':
    'The system could not open {path} ({reason}): open it in your file manager, or set a default program for it.',
  'backend.systemOpenFailedLogs':
    'The system could not open the logs folder ({reason}): the logs are in {dir}; open it in your file manager.',
  'backend.noSaveDialog': 'Type where to save the zip (this window has no system dialog).',
  'backend.openFailedLogs':
    '{program} could not open the logs folder (it ended with code {code}): the logs are in {dir}; open it in your file manager.',
  'backend.nameWorkspace': 'Give the workspace a name.',
  'backend.defaultView': 'The default view is list or grid.',
  'backend.confirmName': "Type the workspace's name to confirm.",
  'backend.writeSomething': 'Write something before posting.',
  'backend.linkPassword': 'Choose a password for the link.',
  'backend.linkPasswordRequired':
    'This service asks for a password for every share link: choose one to turn the link on.',
  'backend.fromBeforeTo': '"From" must be before "To".',
  'backend.auditForbidden': "Only Moderators and above can see a file's audit trail.",
  'backend.noSystemDialog': 'Choose the folder in the list (this window has no system dialog).',
  'backend.enterEmail': 'Enter the email address of your account.',
  'backend.enterPassword': 'Enter your password.',
  'backend.enterToken': 'Paste an access token.',
  'backend.signInRefusedOf': '{server} refused the sign-in of {email}: {reason}',
  'backend.signInRefused': '{server} refused the sign-in: {reason}',
  'backend.signInRefusedNoReason': 'the sign-in was refused.',
  'backend.browserIncomplete': 'Signing in through the browser did not complete: try again.',
  'backend.tokenRefused': '{server} refused the access token (expired or revoked).',
  'backend.notSignedInAgain': 'This account is not signed in: sign in again.',
  'backend.notSignedIn': 'This account is not signed in.',
  'backend.noKeychain':
    'No keychain is available on this computer to remember the account ({problem}): keep it for this session only, or in a file.',
  'backend.notAServer': '"{raw}" is not a server address: enter one such as files.example.com.',
  'backend.notListed': 'Only the files a sync pair lists as conflicts or problems open here.',
  'backend.notInside': '{path} is not a path inside the sync folder.',
  'backend.goneFromFolder': '{path} is no longer in the sync folder.',
  'backend.leadsOutside': '{path} leads outside the sync folder: it is not opened.',
  'backend.throughLink': '{path} is reached through a link: it is not opened.',
  'backend.noProgram':
    'No program to open it was found on this computer: it is {path}; open it in your file manager.',
  'backend.noReverseOrder':
    'This server does not say how many items a folder holds, so it cannot be listed the other way round.',
  'backend.pairGone': 'This synced folder is no longer synced.',
  'backend.trashGone': 'This item is no longer in the trash.',
  'backend.trashRootGone': 'Its synced folder {dir} is no longer on this computer.',
  'backend.workspaceNotSynced': 'This workspace is not synced to this computer.',
  'backend.roleNoDownload': 'Your role does not let {name} be downloaded here.',
  'backend.onDemand.pinned':
    '{name} is always kept on this device: turn off “Always keep on this device” to free up its space.',
  'backend.onDemand.pinnedAbove':
    '{name} is kept on this device because {folder} is always kept: turn that off on {folder}.',
  'backend.onDemand.notYet':
    '{name} is online only and could not be downloaded now: it comes down with the next sync (Status says what it waits for).',
  'backend.notSyncedYet': 'This item is not synced to this computer yet.',
  'backend.linkOff':
    'Its share link is turned off: turn it on in the details to open it in a browser.',
  'backend.folderNotFound': 'This folder was not found.',
  'backend.folderGone': 'This folder was not found: it was deleted, or you no longer have access.',
  'backend.enterInvite': 'Enter an email address to invite.',
  'backend.inviteMax':
    '{n, plural, one {Invite at most # address at once.} other {Invite at most # addresses at once.}}',
  'backend.roleKept': 'The service kept the role {role}; try again.',
  'backend.overlaps': '{dir} already syncs "{workspace}": choose a folder outside it.',
  'backend.retryPaused': 'This folder is paused: resume it to sync.',
  'backend.noHeldDeletes': 'No deletions are waiting for an answer.',
  'backend.putBack':
    'These items were removed in the sync folder: to keep them, put them back there.',
  'backend.pairNotFound': 'This sync pair no longer exists.',
  'backend.fullPath':
    'Choose the local folder by its full path (for example ~/Q3 or /home/ann/Q3).',
  'backend.chooseFolder': 'Choose a folder on this computer.',
  'backend.notExists': '{path} does not exist.',
  'backend.isFile': '{path} is a file, not a folder.',
  'backend.permission': '{path} cannot be opened: permission denied.',
  'backend.cannotList': '{path} cannot be listed.',
  'backend.outsideHome': '{path} is outside your home folder: choose a folder under {home}.',
  'backend.zipFullPath':
    'Choose where to save the zip by its full path (for example ~/Downloads or /home/ann/Downloads).',
  'backend.exists': '{path} already exists: choose another name.',
  'backend.noSuchFolder': 'The folder {dir} does not exist: choose a folder that does.',
  'backend.tooManyZips': 'There are too many zips of this folder in {dir} already.',
  'backend.cannotWrite': 'Cannot write to {dir}: choose another folder.',
  'backend.diskFull': 'The disk holding {dir} is full.',

  // A pass's progress (src/shared/progress-words.ts): the window, the tray and the CLI.
  'progress.archive':
    '{files, plural, one {Downloading # file in one archive} other {Downloading # files in one archive}}',
  'progress.archiveOf':
    '{files, plural, one {Downloading # file of {name} in one archive} other {Downloading # files of {name} in one archive}}',
  'progress.placeholder': 'Placing the placeholder of {name}',
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

  // A conflict copy's name: `plan (conflict 2026-11-29 143000 vm).txt` (sync/conflict-copy.ts).
  // Made in the language of the moment, and recognised in every language: keep {when} and {host}.
  'engine.conflictCopyName': 'conflict {when} {host}',
  'engine.placeholderWritten':
    'Something was written into the placeholder of {name}: it is kept as {copy} and uploaded; the placeholder is back.',
  'engine.placeholder.text':
    'Workspace Sync: this file is kept online only; this placeholder holds none of its content.\nName: {name}\nSize: {size, number} bytes\nModified on the service: {modified}\nOpening it downloads the file to its real name (where the file-manager integration is installed: workspace-sync integrate --install), as does: workspace-sync files download on it.',
  'engine.conflictCopyHost': 'this computer',

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
  'engine.heldRemoteRecent':
    '{total, plural, one {The service lists {n} more of # synced item as deleted, after {recent} moved to the trash here in the last hour: confirm to move them to the trash too, or keep them} other {The service lists {n} more of # synced items as deleted, after {recent} moved to the trash here in the last hour: confirm to move them to the trash too, or keep them}}',
  'engine.remoteFolderTrashed':
    '{n, plural, one {{path} was deleted on the service (# item): moved to the trash on this computer, where it can be restored} other {{path} was deleted on the service (# items): moved to the trash on this computer, where it can be restored}}',
  'engine.retryOffline': 'Offline: the service is not available; trying again in {seconds} s',
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
  'tray.offline': 'Offline: the service is not available',
  'tray.syncing': 'Syncing {progress}',
  'tray.syncingPlain': 'Syncing…',
  'tray.pausedOne': '{workspace}: paused',
  'tray.pausedAll': 'All folders paused',
  'tray.upToDate': 'Up to date',
  'tray.openFolder': 'Open folder',
  'tray.openFailed': 'The folder was not opened',
  'tray.openWindow': 'Open Workspace Sync',
  'tray.resume': 'Resume syncing',
  'tray.pause': 'Pause syncing',
  'tray.retryNow': 'Retry now',
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
  'dialog.saveZip': 'Save the zip',
  'dialog.save': 'Save',
  'dialog.zipFiles': 'Zip archives',
  'dialog.saveFailed': 'The save dialog could not be shown: try again.',

  // The CLI (src/main/cli): its help, its lines and its summary, in the language of LANG.
  'cli.usage': `usage: {program} <command> [options]

Syncs a workspace of the Workspace Content Service with a local folder, without the desktop app.

commands:
  login       sign in with email and password; the account is remembered
  logout      forget a remembered account
  workspaces  list the workspaces you can sync
  sync        sync a workspace with a folder, continuously or --once
  folders     which folders of a sync folder's workspace sync here; --exclude, --include
  files       files on demand: download, free, pin, unpin, status or open synced files
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
  'cli.freed':
    '{n, plural, one {# file} other {# files}} not opened lately freed (the disk is nearly full)',
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
  'cli.status.lastSuccess': 'last successful sync {ago}',
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
  'engine.placeholderName':
    'A file online only here has this name (its placeholder is beside it, ending in {name}): rename this folder to sync it.',
  'engine.sameName':
    'For the service this is the same name as {other} (they differ only in case or accents): rename one of them to sync it.',
  'engine.changeRefused':
    'Your role in this workspace does not allow this change: it is kept here only.',
  'engine.serviceRefused': 'The service refused it ({reason}): it is kept here only.',

  // The service client's errors (src/main/api/errors.ts, proxy.ts): the server's own texts
  // (a reason, a field's message) are parameters, said as the server wrote them.
  'service.signInRefused': 'The service did not accept the sign-in.',
  'service.signInRefusedWhy': 'The service did not accept the sign-in ({detail}).',
  'service.forbidden': 'Not permitted: {reason}.',
  'service.forbiddenRole': 'Not permitted: your role does not allow this.',
  'service.notFound': 'Not found ({endpoint}): it was deleted, or you no longer have access.',
  'service.validation': 'The service refused the request: {errors}.',
  'service.noReason': 'no reason given',
  'service.rateLimited': 'The service is busy (rate limited): it will be tried again shortly.',
  'service.server': 'The service had a problem (HTTP {status}); it will be tried again later.',
  'service.network': 'Cannot reach the service ({code}): check the connection.',
  'service.outcomeUnknown':
    'The connection was lost before the service answered ({code}); whether the change was made is unknown.',
  'service.protocol': 'Unexpected answer from {endpoint}: {detail}.',
  'error.nameTooLong':
    'A name in {path} is too long for this computer (255 bytes per name at most): choose a shorter folder or name.',
  'error.pathTooLong':
    'The path {path} is too long for this computer: choose a folder higher up, or shorter names.',
  'service.redirect':
    'The server answered with a redirect to {to}; check the server address (it should be the service’s API, such as https://sync.example.com/api/v1).',
  'oauth.pageDoneTitle': 'Return to Workspace Sync',
  'oauth.pageDone':
    'The service sent your sign-in back to Workspace Sync. You can close this tab: the Workspace Sync window says whether signing in succeeded.',
  'oauth.pageFailedTitle': 'Sign-in did not complete',
  'oauth.pageFailed': 'Return to Workspace Sync and try again.',
  'service.notHttp':
    'The server at {server} did not answer in HTTP: check the server address and its port.',
  'service.notHttpBody':
    'The server’s answer is not valid HTTP: check the server address; if it is right, the server or a proxy on the way is at fault.',
  'service.notTls':
    'The server at {server} does not speak HTTPS on that port: check the server address (http:// or https://) and its port.',
  'service.certificate':
    'The certificate of {server} is not trusted on this computer ({code}): check the server address; if it is right, ask its administrator for a certificate this system trusts.',
  'service.tls':
    'A secure connection to {server} could not be made ({code}): check the server address and its port.',
  'service.insecure':
    'Refusing to send credentials over plain http to a host that is not this computer: use an https server URL.',
  'service.proxyUnusable': '{source} is not a usable proxy: {problem}.',
  'service.proxySetting': 'The proxy setting',
  'service.proxyProblem':
    '{kind, select, no_scheme {write the proxy as a URL starting with http://, like {example}} scheme {only http:// (or https://) proxies can be used, not {scheme}://: write it like {example}} not_url {the proxy is not a valid URL (check its host and port): write it like {example}} no_host {the proxy URL names no host: write it like {example}} path {a proxy URL is only a host and a port, without a path: write it like {example}} other {the proxy URL has a password but no user name: write user:password@ before the host}}',
  'service.proxyGateway':
    'HTTP {status} through the proxy {proxy}: it could not reach {host}, or the service is down; it will be tried again later.',
  'service.proxyRefused':
    'The proxy {proxy} refused the connection to {host} (HTTP {status}): {why}.',
  'service.theProxy': 'the proxy',
  'service.signInTooLong': 'the sign-in took too long',
  'service.signInMismatch': 'the sign-in answer did not match this request',
  'service.deadline': 'The service did not finish answering {endpoint} within {seconds} s.',
  'service.proxyWhy':
    '{status, select, 403 {its rules do not allow it} 407 {it asks for a user and password: put user:password@ before its host, or check them} 502 {it could not reach the service} 503 {it is unavailable} 504 {it could not reach the service in time} other {it refused}}',

  // The engine's own sentences (src/main/sync): held deletions, the sync folder's checks, names
  // the scan refuses, files it cannot read, this computer's errors (by code, the path relative to
  // the sync folder), the file watcher's limit.
  'engine.heldLocalStory':
    '{count} of {total} synced items were removed from the sync folder; nothing was deleted on the service. If you meant it, run again with --confirm-deletes (or confirm in the app); if not, put the files back (or check that the folder is mounted).',
  'engine.heldRemoteStory':
    'The service lists {n, number} of {total, plural, one {# synced item} other {# synced items}} as deleted; nothing was moved to the trash here. If that is right, run again with --confirm-remote-deletes (they go to the trash, not away); to keep them and upload them again, run with --keep-local-copies. Check first that the server and workspace are the right ones.',
  'engine.heldRemoteRecentStory':
    'The service lists {n, number} more of {total, plural, one {# synced item} other {# synced items}} as deleted, after {recent, number} deleted there were moved to the trash here in the last hour; nothing more was moved. If that is right, run again with --confirm-remote-deletes (they go to the trash, not away); to keep them and upload them again, run with --keep-local-copies. Check first that the server and workspace are the right ones.',
  'engine.rootMissing':
    'The sync folder {root} is missing. If you moved or renamed it, put it back; to start over in a new folder, choose that folder instead. Nothing was deleted on the service.',
  'engine.rootChanged':
    'The sync folder {root} was replaced by another folder. Syncing stopped so that nothing is deleted on the service; put the original folder back, or sync into a new folder.',
  'engine.workspaceGone':
    'Workspace {id} was deleted or is no longer shared with you: syncing stopped, and the files here stay as they are.',
  'engine.stateInFolder':
    'The state directory and the sync folder must not contain each other: choose another --state or --dir.',
  'engine.folder.system':
    '{folder} is in a system folder, which holds no files of yours: choose a folder in your home folder or on a data disk.',
  'engine.folder.systemVia':
    '{folder} is in a system folder (it leads to {real}), which holds no files of yours: choose a folder in your home folder or on a data disk.',
  'engine.folder.root':
    '{folder} is the top of a disk: choose a folder inside it, in your home folder or on a data disk.',
  'engine.folder.home':
    '{folder} is your home folder itself, which holds everything of yours: choose a folder inside it.',
  'engine.folder.appData':
    "{folder} holds or is inside this app's own data ({state}): choose another folder.",
  'engine.folder.denied':
    '{folder} cannot be used: permission denied. Choose a folder you can write to.',
  'engine.folder.full':
    'The disk holding {folder} is full: free some space, or choose a folder on another disk.',
  'engine.folder.readOnly': '{folder} is on a read-only disk: choose a folder you can write to.',
  'engine.folder.tooLong': 'The path {folder} is too long for this computer: choose a shorter one.',
  'engine.folder.loop': '{folder} goes through a loop of symbolic links: choose another folder.',
  'engine.folder.isFile': '{folder} is a file, not a folder: choose a folder for syncing.',
  'engine.folder.isFileOnPath': '{folder} is a file, not a folder: choose a folder.',
  'engine.folder.unusable': '{folder} cannot be used as a sync folder: choose another folder.',
  'engine.folder.noAnswer':
    '{folder} did not answer within {seconds} s (a disk or network share that stopped responding?): choose another folder.',
  'engine.badEncoding':
    '{folder, select, yes {This name is not valid UTF-8 (shown with \uFFFD for the bytes that are not): nothing in it is synced; rename it to sync it.} other {This name is not valid UTF-8 (shown with \uFFFD for the bytes that are not): it is not synced; rename it to sync it.}}',
  'engine.badName':
    'This name cannot be synced ({kind, select, separator {it holds a backslash} control {it holds a control character} other {{problem}}}): rename it to sync it.',
  'engine.unreadable':
    'This file cannot be read ({why, select, denied {permission denied} locked {another program has it locked} not_plain {it is no longer a plain file} io {the disk reported a read error} other {{why}}}): it stays here, not uploaded, and is tried again when it changes and at each full check.',
  'engine.keptUnchosen':
    'This folder is not chosen for this computer; its copy here held changes not sent, so it was kept and is not synced. Move what you need elsewhere, or choose the folder again.',
  'engine.unchosenTaken':
    'A folder of this name on the service is not chosen for this computer: this one is kept here and not synced. Rename it to sync it as a new folder, or choose that folder again.',
  'engine.swapped':
    '{path} changed while it was being synced (a folder on its path was moved or replaced, perhaps by a link to elsewhere): it is tried again later.',
  'engine.onDemand.notSynced':
    '{n, plural, one {Not a synced file or folder: {path}. Sync it first (workspace-sync sync --once).} other {# paths are not synced files or folders, {path} among them. Sync them first (workspace-sync sync --once).}}',
  'engine.onDemand.freeRefused':
    '{n, plural, one {Not freed: {path} has changes that are not on the service yet. Let it sync, then free it.} other {# files not freed, {path} among them: they have changes that are not on the service yet. Let them sync, then free them.}}',
  'engine.onDemand.freeInTheWay':
    'Not freed: a file named {placeholder} is in the way of the placeholder of {path}. Rename or move it, then free the file.',
  'engine.pairBusy':
    'Another Workspace Sync process is syncing {dir} already (the app, or a sync command): two would race on the same files. Stop that one first, or leave the folder to it.',
  'engine.door.paused':
    'Done as far as it can be: syncing of this folder is paused, so the rest happens once you resume it.',
  'engine.door.slow': 'Still at it: this takes longer, and goes on in the background.',
  'engine.door.failed': 'Asked, but the folder could not sync just now ({why}): it is tried again.',
  'engine.door.notHere':
    '{path} could not be downloaded yet: the folder’s problems say why (workspace-sync status).',
  'engine.door.unsafe':
    '{dir} is not a private folder of yours (another user owns it, or may enter it), so this folder cannot be synced safely: remove it, or set XDG_RUNTIME_DIR to your own runtime folder.',
  'engine.door.broken':
    'Workspace Sync could not set up its local connection {door} ({why}): check that the folder is writable, then try again.',
  'engine.onDemand.gone':
    '{path} is no longer on the service (deleted or moved there meanwhile): nothing to download.',
  'engine.conflictSettled': 'This conflict is settled already.',
  'engine.choiceGone': '{name} is no longer there: nothing to settle.',
  'engine.choiceChanged': '{name} changed since the conflict: look at it again, then choose.',
  'engine.keepMineFiles':
    'Keep mine works on files: for a folder, move what you want to keep into it by hand.',
  'engine.problemOver': 'This problem is over already.',
  'engine.swappedChoice':
    '{path} was moved or replaced while your choice was carried out (a folder on its path, perhaps by a link to elsewhere): nothing outside the sync folder was touched. Look at it again, then choose.',
  'engine.theSyncFolder': 'The sync folder',
  'engine.watchLimit':
    'The system ran out of file watchers (inotify) for {where}; watching it by polling, which is slower. Raise the limit: sudo sysctl fs.inotify.max_user_watches=524288 (and add it to /etc/sysctl.conf).',
  'engine.watchProblem': 'Watching the sync folder for changes ran into a problem: {error}',
  'engine.fs.denied':
    'This computer does not allow changing {path} (permission denied): check its permissions.',
  'engine.fs.full': 'The disk holding {path} is full: free some space.',
  'engine.fs.readOnly': '{path} is on a read-only disk: it cannot be changed.',
  'engine.fs.tooLong': 'The name or path of {path} is too long for this computer.',
  'engine.fs.busy': '{path} is in use by another program: it is tried again later.',
  'engine.fs.notFolder': 'A file and a folder are in each other’s way at {path}.',
  'engine.fs.exists': 'Something is already at {path}.',
  'engine.fs.loop': '{path} goes through a loop of symbolic links.',
  'engine.fs.tooMany': 'This computer has too many files open (at {path}): close some programs.',
  'engine.fs.missing': '{path} is no longer there.',
  'engine.fs.io': 'The disk reported an error at {path}.',
  'engine.fs.other': 'This computer refused: {code} ({path}).',
  'engine.fs.noLook':
    '{path} cannot be looked at (permission denied): check the permissions of the folder it is in.',
  'engine.fs.subtree':
    '{problem} Nothing in it is synced; it is tried again at the next full walk.',
  'engine.keptUnplaced':
    '{path} holds items that cannot be on this computer (a path too long here, a name or place it refuses, or a folder not chosen for it); it was not deleted on the service and is back. Delete it on the service, or move it up so that everything fits.',
  'engine.leadsOutside': 'Refusing to write through {dir}: it leads outside the sync folder',
  'engine.tooManyBytes': 'received more than the {size} bytes announced',
  'engine.fewerBytes': 'received {written} of the {size} bytes announced',
  'engine.cutOff':
    'The download was cut off after {written} of the {size} bytes announced: it is tried again (from there) later',
  'engine.deadlineCut':
    '{deadline} ({written} of {size} bytes came): it is tried again (from there) later',
  'cli.tokensInFile':
    'Your tokens are kept in {file}, in plain text that only your user can read (not in a keychain, as --store file asks). "logout" deletes them.',
  'cli.signedIn': 'Signed in as {email} on {server}',
  'cli.signedOut': 'Signed out {email} on {server}',
  'cli.noWorkspaces': 'No workspaces on {server}.',
  'cli.column.id': 'ID',
  'cli.column.name': 'NAME',
  'cli.column.role': 'ROLE',
  'cli.copied': 'Copied the link of {name} to the clipboard ({via}).',

  // Each command's --help (`{proxy}` is the proxy option's lines, `{demo}` yes with the sandbox).
  'cli.help.login': `usage: workspace-sync login --server URL --email EMAIL [options]

Signs in with email and password (the OAuth password grant) and remembers the account's tokens
in the OS keychain, so that "workspaces" and "sync" need only --server afterwards. The
password is asked for without echo, or read from the first line of standard input with
--password-stdin; it is never stored.

  --server URL            the service's base URL, e.g. https://files.example.com/api/v1
  --email EMAIL           the account's email
  --password-stdin        read the password from standard input (first line)
  --store keychain|file   where the tokens are kept: the OS keychain (default), or, on a machine
                          without one (a headless server), a file only you can read, in plain
                          text, in the state directory; "sync" renews them there for as long
                          as the service allows
  --client-id ID          OAuth client id (default: $WORKSPACE_SYNC_CLIENT_ID or workspace-sync)
  --client-secret SECRET  OAuth client secret (default: $WORKSPACE_SYNC_CLIENT_SECRET or sandbox-secret)
{proxy}
  --state DIR             state directory (default: $WORKSPACE_SYNC_STATE or the platform's)
  --verbose               mirror the log to stderr; stack traces on failure
  -h, --help              this text

examples:
  workspace-sync login --server https://files.example.com --email ann@example.com
  workspace-sync login --server https://files.example.com --email ann@example.com --store file`,
  'cli.help.logout': `usage: workspace-sync logout --server URL [--email EMAIL] [options]

Forgets a remembered account (its tokens are deleted from the keychain, or from the file of
"login --store file").

  --server URL   the service's base URL the account was signed in to
  --email EMAIL  the account (needed only when several are remembered for the server)
  --state DIR    state directory (default: $WORKSPACE_SYNC_STATE or the platform's)
  --verbose      mirror the log to stderr; stack traces on failure
  -h, --help     this text`,
  'cli.help.workspaces': `usage: workspace-sync workspaces {demo, select, yes {--server URL | --sandbox} other {--server URL}} [options]

Lists the workspaces you can sync: id, name and your role in each.

  --server URL        the service's base URL, e.g. https://files.example.com/api/v1
  --token-file PATH   read an access token from PATH (- for standard input); default:
                      $WORKSPACE_SYNC_TOKEN, else the account remembered by "login"
  --token TOKEN       the same, from the command line (visible to every user in ps: avoid)
  --email EMAIL       which remembered account, when there are several for the server
  --json              one JSON object per line: {json}{demo, select, yes {
  --sandbox           use an embedded demo sandbox instead of a service} other {}}
{proxy}
  --state DIR         state directory (default: $WORKSPACE_SYNC_STATE or the platform's)
  --verbose           mirror the log to stderr; stack traces on failure
  -h, --help          this text

examples:
  workspace-sync workspaces --server https://files.example.com/api/v1
  workspace-sync workspaces --server https://files.example.com/api/v1 --token-file ~/.ws-token --json`,
  'cli.help.sync': `usage: workspace-sync sync --server URL --workspace ID --dir PATH [options]{demo, select, yes {
       workspace-sync sync --sandbox --dir PATH [options]} other {}}

Syncs a workspace with a local folder: continuously until Ctrl-C (SIGINT) or SIGTERM, or one
pass with --once.{demo, select, yes { With --sandbox (never without it) it starts an embedded demo sandbox, signs in
as its owner and syncs its demo workspace.} other {}}

  --server URL       the service's base URL, e.g. https://files.example.com/api/v1
  --token-file PATH  read an access token from PATH (- for standard input), not renewed;
                     default: $WORKSPACE_SYNC_TOKEN, else the account remembered by "login",
                     renewed as needed
  --token TOKEN      the same, from the command line (visible to every user in ps: avoid)
  --email EMAIL      which remembered account, when there are several for the server
  --workspace ID     the workspace to sync (see "workspace-sync workspaces")
  --dir PATH         the local folder (created when missing)
  --once             one pass, then a summary; exit 0 when it completed
  --merge            a first sync of a folder holding files uploads them into the workspace
                     (without it, such a folder is refused, saying how many)
  --exclude PATH     leave out this folder of the workspace (e.g. Reports/2023) and all below
                     it: not downloaded, nothing uploaded into it; repeatable, and remembered
                     (see "workspace-sync folders" to show or change it later)
  --on-demand online|full
                     whether new files arrive as placeholders kept online only (NAME.wsync,
                     see "workspace-sync files") or in full (the default); remembered
  --free-unused-days N|off
                     when the disk is nearly full (below 5% free, or 2 GiB, whichever is
                     smaller), free the files not opened for N days (oldest first; never a
                     pinned file or one with changes not sent); off (the default) never; remembered
  --confirm-deletes  let this run delete on the service even when a pass would delete more than
                     the safety net allows (half of the synced items, or over 1,000)
  --confirm-remote-deletes
                     let this run move to the trash (never delete) what the service lists as
                     deleted, even past that safety net
  --keep-local-copies
                     when the service lists past that safety net as deleted, keep those files
                     here and upload them again
  --poll SECONDS     how often to look for remote changes when running continuously (default 5)
  --limit-up KBPS    all uploads together at most KBPS KB/s (1 KB = 1,000 bytes); 0 (the
                     default) for no limit
  --limit-down KBPS  all downloads together at most KBPS KB/s; 0 (the default) for no limit
  --json             one JSON object per line on stdout: status, progress, problem, conflict,
                     notice, error, summary
{proxy}{demo, select, yes {
  --sandbox          use an embedded demo sandbox instead of a service} other {}}
  --state DIR        state directory: settings, journals, logs, trash
                     (default: $WORKSPACE_SYNC_STATE or the platform's)
  --verbose          mirror the log to stderr; stack traces on failure
  -h, --help         this text

examples:{demo, select, yes {
  workspace-sync sync --sandbox --dir ./demo-workspace} other {}}
  workspace-sync sync --server https://files.example.com/api/v1 --workspace 42 --dir ~/Q3 --once
  workspace-sync sync --server https://files.example.com/api/v1 --workspace 42 --dir ~/Q3 --json
  workspace-sync sync --server https://files.example.com/api/v1 --workspace 42 --dir ~/Q3 \\
    --limit-up 250 --limit-down 1000`,
  'cli.help.status': `usage: {program} status [--json] [options]

Says what the syncs running on this computer (under this state directory) are doing: each pair
(folder, workspace, server, account), its state, its last sync and its problems. It starts no
sync and makes no request: it reads what each running "sync" keeps in the state directory.

  --json         one JSON object per pair, a line each (running: false for a sync that ended
                 without closing, e.g. killed)
  --state DIR    state directory (default: $WORKSPACE_SYNC_STATE or the platform's)
  --verbose      mirror the log to stderr; stack traces on failure
  -h, --help     this text

exit status: 0 at least one sync is running, 3 none is, 1 the state could not be read`,
  'cli.help.ui': `usage: workspace-sync ui {demo, select, yes {--sandbox | --server URL} other {--server URL}} [--port N] [options]

Serves the Workspace Sync window to a browser on this computer (127.0.0.1 only) and prints one
JSON line {json}: open that URL. The secret in it changes
on every run; without it the window cannot connect. Runs until Ctrl-C (SIGINT) or SIGTERM.
Without a keychain, the window asks where to keep an account: for this session only, or in
accounts.plain.json in the state directory (plain text, mode 0600, as "login --store file").
{demo, select, yes {
With --sandbox it starts an embedded demo sandbox, signs in its owner (ann@example.com,
password ann-sandbox-pass), syncs the demo workspace into a fresh temporary folder and offers
"Try the demo". The window is built by "npm run build" (out/renderer).
} other {}}
  --server URL      sign in to this service from the window{demo, select, yes {
  --sandbox         use an embedded demo sandbox instead of a service} other {}}
  --port N          the port to listen on (default: any free port)
  --static DIR      the built window (default: out/renderer of this package)
  --link-options -- PATH
                    open the browser at the link options of the synced file or folder PATH
                    (its service, no --server); ends once the page is closed
  --state DIR       state directory: settings, journals, logs, trash{demo, select, yes { (with the sandbox and no
                    --state: a temporary one, removed on exit)} other {}}
  --verbose         mirror the log to stderr; stack traces on failure
  -h, --help        this text`,
  'cli.help.link': `usage: {program} link PATH [--copy] [options]

Prints the share link of a synced file or folder: the address at which anyone with the link
opens it. A link that is turned off is turned on first, as "Copy link" does in the window (your
role must allow changing links: Moderator and above), and the command says so.

  --copy             also put the link on the clipboard (wl-copy, xclip or xsel on Linux)
  --notify           also say how it went in a desktop notification (notify-send), for file
                     manager menus, which show no terminal
  --token-file PATH  read an access token for the folder's server from PATH (- for standard
                     input); default: $WORKSPACE_SYNC_TOKEN, else the remembered account that
                     syncs the folder
  --token TOKEN      the same, from the command line (visible to every user in ps: avoid)
{proxy}
  --state DIR        state directory: settings, journals, logs, trash
                     (default: $WORKSPACE_SYNC_STATE or the platform's)
  --verbose          mirror the log to stderr; stack traces on failure
  -h, --help         this text

The link goes to stdout, on one line; what else happened (copied, turned on) to stderr.
Exit status 1 when PATH is not synced (yet), or the service refused.

examples:
  {program} link ~/Q3/Reports/Summary.pdf
  {program} link --copy ~/Q3/Reports`,
  'cli.help.integrate': `usage: {program} integrate --install | --uninstall [options]

Adds "{label}" to the context menu of the Linux file managers, for you alone:
Nautilus (a script), Nemo (an action), Dolphin (a service menu, KDE 6 and 5) and Thunar (a
custom action, added to your others). It runs "{program} link --copy --notify" on the item:
the link goes to the clipboard and a notification says so, or why not. It also makes
placeholders (NAME.wsync) open with a double-click: a MIME type for them, an opener that runs
"{program} files open" on one, and that opener as their default app (in mimeapps.list).
And files on demand's entries, for one or several items (Nautilus and Dolphin: in a "Workspace
Sync" submenu): Download now, Always keep on this device, Don''t always keep and Free up space,
running "{program} files download|pin|unpin|free --notify" on them.

  --install      write the entries (again: running it twice changes nothing)
  --uninstall    remove them (Thunar's other actions and mimeapps.list's other lines stay)
  --state DIR    the state directory the entries use (default: $WORKSPACE_SYNC_STATE or the
                 platform's); written into them, since a file manager does not have your
                 shell's environment
  --verbose      mirror the log to stderr; stack traces on failure
  -h, --help     this text

The files written or removed are listed on stdout, one a line. The desktop app installs the
same entries (running the app instead) each time it starts.`,
  'cli.help.proxy1': 'go through this proxy, http://[user:password@]host:port',
  'cli.help.proxy2': '(default: $HTTPS_PROXY, $HTTP_PROXY, past $NO_PROXY)',

  // The CLI's refusals and its own lines (src/main/cli): option parsing, each command's errors.
  'cli.err.valueMissing': "Option ''{option} <value>'' argument missing",
  'cli.err.takesNoValue': "Option ''{option}'' does not take an argument",
  'cli.err.ambiguous': "Option ''{option}'' argument is ambiguous",
  'cli.err.unexpectedArgument': 'unexpected argument {arg}',
  'cli.err.required': '{option} is required',
  'cli.err.positiveInt': '{option} must be a positive whole number, not "{value}"',
  'cli.err.positiveNumber': '{option} must be a positive number, not "{value}"',
  'cli.err.proxy': '--proxy: {problem}',
  'cli.err.proxy.noScheme': 'write the proxy as a URL starting with http://, like {example}',
  'cli.err.proxy.scheme':
    'only http:// (or https://) proxies can be used, not {scheme}://: write it like {example}',
  'cli.err.proxy.notUrl':
    'the proxy is not a valid URL (check its host and port): write it like {example}',
  'cli.err.proxy.noHost': 'the proxy URL names no host: write it like {example}',
  'cli.err.proxy.path':
    'a proxy URL is only a host and a port, without a path: write it like {example}',
  'cli.err.proxy.noUser':
    'the proxy URL has a password but no user name: write user:password@ before the host',
  'cli.err.dirIsFile': '--dir {dir} is a file, not a folder',
  'cli.err.dirUnderFile': '--dir {dir} cannot be a folder: {file} is a file',
  'cli.err.dirOverlaps':
    '--dir {dir} is inside or around {other}, which already syncs workspace {workspace} here: choose a folder outside it',
  'cli.err.notEmpty':
    '{more, select, yes {--dir {dir} holds more than {n, number} items} other {{n, plural, one {--dir {dir} holds # item} other {--dir {dir} holds # items}}}} that this first sync would upload into "{workspace}": give --merge to merge them, or choose an empty folder.',
  'cli.err.exclusive': '{a} and {b} exclude each other',
  'cli.err.notBoth': '{a} and {b} cannot both be given',
  'cli.err.serverOrSandbox':
    '--server URL is required (or --sandbox, to try the embedded demo sandbox instead of a service)',
  'cli.err.noSandbox':
    'The embedded demo sandbox (--sandbox) is only available when run from source (npm run -s cli): pass --server URL.',
  'cli.err.sandboxNoUsers': 'The embedded sandbox has no users.',
  'cli.err.sandboxNoUser': 'The embedded sandbox has no user {email}; its users are {users}.',
  'cli.err.tokenNeedsServer': '--token needs --server',
  'cli.err.limit':
    '{option} must be a whole number of KB/s from 0 (no limit) to {max, number}, not "{value}"',
  'cli.err.notBuilt':
    'The window is not built ({dir} has no index.html): run "npm run build" first, then "ui" again.',
  'cli.err.noWindowIn': '--static {dir} holds no window (no index.html in it).',
  'cli.err.port': '--port must be a port number (0-65535), not "{value}"',
  'cli.err.notUrl': '{option} "{value}" is not a URL',
  'cli.err.store': '--store must be keychain or file, not "{value}"',
  'cli.err.cannotRemember': '{reason}, or keep it in a file with --store file.',
  'cli.err.noAccountFile': '--store file: this program keeps no account file here.',
  'cli.err.signInCancelled': 'Sign-in cancelled.',
  'cli.err.noPasswordRead': 'No password read ({why}).',
  'cli.err.noTerminal':
    'Cannot ask for the password: standard input is not a terminal. Pipe it in with --password-stdin.',
  'cli.err.noPassword': 'No password given.',
  'cli.err.signInRefused': '{server} refused the sign-in of {email}: {reason}',
  'cli.err.noAccount': 'No account is remembered for {server}.',
  'cli.err.noAccountOf': 'No account {email} is remembered for {server}.',
  'cli.err.oneAtATime':
    'Choose one file or folder at a time ({n, plural, one {# was given} other {# were given}}).',
  'cli.err.installOrUninstall': 'choose one of --install and --uninstall',
  'cli.err.noLauncher': 'Cannot find the {program} launcher ({bin}).',
  'cli.err.noSuchFolder': '{option} {path}: no such folder in the workspace',
  'cli.err.notExist': '{path} does not exist.',
  'cli.err.oneItem':
    '{option} takes one synced file or folder: the item whose link options to open.',
  'cli.ui.openTheUrl': 'No browser could be opened: open the URL printed above in one.',
  'cli.err.notSyncFolder':
    '{path} is not a sync folder (no sync of it in {state}): start one with "{program} sync --dir {dir} ...".',
  'cli.signalAgain': '{signal} again, exiting now',
  'cli.passwordPrompt': 'Password for {email}: ',
  'cli.apiBase':
    "{program}: {given} is not the service''s API; using {found} (give that as --server to skip this check).",
  'cli.token.warning':
    '{program}: warning: --token puts the token on the command line, where every user of this computer can read it (ps): use --token-file PATH (or - for standard input) or WORKSPACE_SYNC_TOKEN instead.',
  'cli.token.prompt': 'Access token: ',
  'cli.token.needsFile': '--token-file needs a file (or - for standard input)',
  'cli.token.missing': '--token-file {file} does not exist.',
  'cli.token.isFolder': '--token-file {file} is a folder, not a file.',
  'cli.token.denied': '--token-file {file} cannot be read (permission denied).',
  'cli.token.unreadable': '--token-file {file} cannot be read ({code}).',
  'cli.token.tooLong': '--token-file {file}: {file} holds more than a token (over 64 KiB).',
  'cli.token.stdinTooLong': '--token-file -: standard input holds more than a token (over 64 KiB).',
  'cli.token.empty': '--token-file {file} is empty.',
  'cli.token.stdinEmpty': '--token-file -: standard input held no token.',
  'cli.link.turnedOn':
    'The link was turned off: it is on now, so anyone with it can open the {kind, select, folder {folder} other {file}}.',
  'cli.link.password': "Opening it asks for the link''s password.",
  'cli.link.until': 'It works until {date}.',
  'cli.link.summary': 'Link of {name}',
  'cli.link.copiedSummary': 'Copied the link of {name}',
  'cli.link.failed': 'Workspace Sync could not copy the link',
  // The file managers' menu entry (`integrate`): each language's words written into it.
  'integrate.menuLabel': 'Copy Workspace Sync link',
  'integrate.menuTooltip': 'Copy the share link of this item to the clipboard',
  'integrate.optionsLabel': 'Copy link with options…',
  'integrate.optionsTooltip':
    'Set the share link’s password and expiry, turn it on or off, copy it',
  // Files on demand's entries in the file managers' menus (issue 41): `files ACTION --notify`.
  'integrate.files.download': 'Download now',
  'integrate.files.downloadTooltip':
    'Bring the file (or every file in the folder) down to this device',
  'integrate.files.pin': 'Always keep on this device',
  'integrate.files.pinTooltip': 'Keep it, and every file that arrives under it, on this device',
  'integrate.files.unpin': "Don''t always keep",
  'integrate.files.unpinTooltip': 'No longer always keep it on this device (nothing is freed now)',
  'integrate.files.free': 'Free up space',
  'integrate.files.freeTooltip':
    'Keep it online only: a placeholder stays, its file goes to the trash',
  'cli.integrate.added': 'Added "{label}" to the file managers\'\' menus.',
  'cli.integrate.removed': 'Removed "{label}".',
  'cli.integrate.nothing': 'There was no entry to remove.',
  'cli.integrate.filesAdded': "Added {labels} (files on demand) to the file managers'' menus.",
  'cli.integrate.filesRemoved': 'Removed {labels}.',
  'cli.integrate.failed':
    'Could not {verb, select, write {write} other {remove}} every entry. {failures}',
  // The opener of placeholders (NAME.wsync, issue 41): a MIME type, a handler, the default app.
  'integrate.placeholderType': 'Workspace Sync placeholder (online only)',
  'integrate.openerName': 'Workspace Sync: download and open',
  'integrate.openerComment': 'Download the file of this placeholder and open it',
  'integrate.part.mimeType': 'MIME type',
  'integrate.part.opener': 'Opener',
  'integrate.part.defaultApp': 'Default app',
  'cli.integrate.openerAdded':
    'Double-clicking a placeholder (NAME.wsync) in a file manager now downloads the file and opens it.',
  'cli.integrate.openerRemoved': 'Removed the opener of placeholders.',
  'cli.integrate.toolMissing':
    '{tool} was not found (Debian: sudo apt-get install {package}): file managers will not know placeholders until it has run on {dir}.',
  'cli.integrate.toolFailed': '{tool} failed on {dir}: {why}',
  'cli.link.err.outside': '{path} is not in a folder Workspace Sync syncs.',
  'cli.link.err.rootNotYet': '{path} has not been synced yet: try again once it has.',
  'cli.link.err.notYet':
    '{path} has not been synced yet: try again once Workspace Sync has synced it.',
  'cli.link.err.cache': "{path} is Workspace Sync''s own working folder: not synced.",
  'cli.link.err.changed':
    '{path} has changed since it was last synced: try again once Workspace Sync has synced it.',
  'cli.link.err.off':
    "The link of {name} is turned off, and your role in the workspace cannot turn it on: ask a Moderator or the workspace''s owner.",
  'cli.link.err.password':
    "The link of {name} is turned off, and this service turns a link on only with a password: choose one with Copy link with options… (or in the item''s details).",
  'cli.link.err.expired':
    'The link of {name} expired on {date}: a Moderator can give it a new expiry in the Workspace Sync window.',
  'cli.link.err.gone':
    '{path} is no longer on the service (deleted there, or you lost access to it).',
  'cli.clipboard.noDisplay':
    'There is no display to copy to (neither DISPLAY nor WAYLAND_DISPLAY is set).',
  'cli.clipboard.failed': 'Could not copy to the clipboard: {tool} could not copy: {message}',
  'cli.clipboard.noTool': 'No clipboard tool found ({tools}).',
  'cli.clipboard.install': 'No clipboard tool found: install xclip, xsel or wl-clipboard.',
  'cli.integrate.emptyCommand': 'The command of the file-manager entries is empty.',
  'cli.integrate.lineBreak': 'The command has a line break in "{arg}".',
  'cli.integrate.nemoToken':
    'The command has "{token}" in "{arg}", which Nemo would replace: install from a path without it.',
  'cli.integrate.notXml':
    '{file} is not valid XML ({why}): it was left as it is; fix it or move it away, then try again.',
  'cli.integrate.notThunar':
    "{file} is not Thunar''s list of custom actions (no <actions>): left as it is.",
  'cli.folders.synced': 'synced      {name}',
  'cli.folders.notSynced': 'not synced  {name}',
  'cli.folders.leftOut':
    'Left out: {names}. The next sync moves the copy here to the trash, unless it holds changes not sent yet.',
  'cli.folders.chosenAgain': 'Chosen again: {names}. The next sync brings it down.',
  'cli.help.files': `usage: {program} files download|free|pin|unpin|status|open PATH... [options]

Files on demand, for files and folders inside a synced folder. A file kept online only is a
placeholder here, NAME.wsync, a short text that holds none of its content; reading it downloads
nothing.

  download  bring the file (or every file in the folder) down to its real name
  free      back to a placeholder; the file goes to the trash. Only a file whose bytes here are
            the ones on the service: a file with changes not sent yet is never freed
  pin       always keep on this device: it, and every file that arrives under it, comes in full
  unpin     no longer pinned (nothing is downloaded or freed by it)
  status    for each PATH: on this device, online only, pinned
  open      download, then open the file with its usual program

PATH may name a placeholder (report.pdf.wsync) or its file (report.pdf). download, free, pin and
open sync that folder once before they return, so what they did is done when they end (as
"{program} sync --once" does); they refuse while another {program} syncs the folder.

  --token-file PATH  read an access token for the folder''s server from PATH (- for standard
                     input); default: $WORKSPACE_SYNC_TOKEN, else the remembered account that
                     syncs the folder
  --token TOKEN      the same, from the command line (visible to every user in ps: avoid)
  --notify           also say a download being opened, and a failure, as a desktop notice
                     (what the file managers' double-click runs: it has no terminal)
{proxy}
  --state DIR        state directory: settings, journals, logs, trash
                     (default: $WORKSPACE_SYNC_STATE or the platform''s)
  --verbose          mirror the log to stderr; stack traces on failure
  -h, --help         this text`,
  'cli.files.err.op': 'Unknown action "{op}": use download, free, pin, unpin, status or open.',
  'cli.files.err.outside':
    '{path} is not in a folder Workspace Sync syncs. Name a file or folder inside a synced folder.',
  'cli.files.err.openOne': 'files open takes one path, not {n}: open them one at a time.',
  'cli.files.here': '{path}: on this device{pinned, select, yes {, pinned} other {}}',
  'cli.files.online': '{path}: online only{pinned, select, yes {, pinned} other {}}',
  'cli.files.partly':
    '{path}: {online, number} of {files, number} files online only{pinned, select, yes {, pinned} other {}}',
  'cli.files.notSynced': '{path}: not synced (yet)',
  'cli.files.opening': 'Opening {path}',
  'cli.files.notify.downloading': 'Downloading {name}…',
  'cli.files.notify.failed': 'Workspace Sync could not open {name}',
  'app.open.notYet':
    '{name} is not downloaded yet: its folder did not sync it now (paused, offline, or a problem with it, shown in Status). Try again once it syncs.',
  'cli.files.notify.done':
    '{action, select, download {Downloaded {name}} pin {{name} is always kept on this device} unpin {{name} is no longer always kept on this device} other {Freed up the space of {name}: online only now}}{others, plural, =0 {} one { and # other item} other { and # other items}}',
  'cli.files.notify.downloadingMany':
    '{others, plural, =0 {Downloading {name}…} one {Downloading {name} and # other item…} other {Downloading {name} and # other items…}}',
  'cli.files.notify.actionFailed':
    '{action, select, download {Workspace Sync could not download {name}} pin {Workspace Sync could not always keep {name}} unpin {Workspace Sync could not stop always keeping {name}} other {Workspace Sync could not free up the space of {name}}}',
  'cli.files.err.mode': '--on-demand takes online or full, not "{value}".',
  'cli.files.err.days':
    '--free-unused-days takes a number of days (1 to 36500) or off, not "{value}".',
  'cli.help.folders': `usage: {program} folders DIR [--exclude PATH]... [--include PATH]... [options]

Shows which folders of the workspace synced in DIR are synced on this computer, and changes it
(selective sync). A folder left out is neither downloaded nor uploaded into, with all below it;
its copy here goes to the trash at the next sync, unless something in it was not sent yet (then
it is kept, and the sync says so). Nothing is deleted on the service. A folder chosen again
comes down at the next sync. Folders made on the service later are synced.

  --exclude PATH     leave out this folder of the workspace (e.g. Reports/2023); repeatable
  --include PATH     sync this folder again; repeatable
  --token-file PATH  read an access token for the folder''s server from PATH (- for standard
                     input); default: $WORKSPACE_SYNC_TOKEN, else the remembered account that
                     syncs the folder
  --token TOKEN      the same, from the command line (visible to every user in ps: avoid)
{proxy}
  --state DIR        state directory: settings, journals, logs, trash
                     (default: $WORKSPACE_SYNC_STATE or the platform''s)
  --verbose          mirror the log to stderr; stack traces on failure
  -h, --help         this text

It lists the top-level folders of the workspace, and the deeper ones left out, one a line:
"synced" or "not synced", then the path.

examples:
  {program} folders ~/Q3
  {program} folders ~/Q3 --exclude Archive --exclude "Reports/2023"
  {program} folders ~/Q3 --include Archive`,

  // The accounts' refusals (src/main/accounts), which the CLI and the window both say.
  'account.emptyToken': '--token is empty',
  'account.tokenRefused':
    '{server} refused the access token (expired or revoked): get a new one, or sign in with "{program} login --server {server} --email EMAIL".',
  'account.notSignedIn':
    'Not signed in to {server}: run "{program} login --server {server} --email EMAIL" first, or pass --token.',
  'account.notSignedInAs':
    'Not signed in to {server} as {email}: run "{program} login --server {server} --email {email}" first, or pass --token.',
  'account.signedOut':
    'You are signed out of {server}: run "{program} login --server {server} --email {email}" again.',
  'account.notApiBase':
    "{server} is not the service''s API (it has no workspaces there): give the API''s base URL, such as {example}.",
  'account.ambiguous':
    'There are several accounts on {server} ({emails}): choose one with --email.',
  'account.notUrl': '"{server}" is not a URL',
  'account.noKeychain':
    'No keychain is available to remember the account ({problem}). Use --token or WORKSPACE_SYNC_TOKEN, or {os, select, linux {start a Secret Service such as gnome-keyring} other {make sure the system keychain is unlocked}}.',
  'account.noKeychainNoCipher':
    "No keychain is available to remember the account ({problem}; the system''s encryption is not available either): {os, select, linux {start a Secret Service such as gnome-keyring} other {make sure the system keychain is unlocked}}, then sign in again.",
  'account.unreachable':
    '{server} cannot be reached ({code}): check the server address and this computer’s connection.',
  'account.noAnswer':
    '{server} did not answer within {seconds} seconds: check the server address and this computer’s connection.',
  'account.noFileStore': 'This account store keeps no file of accounts.',
  'account.unreadable': '{file} cannot be read ({why}): delete it, then sign in again.',
  'account.notAList': 'its content is not a list of accounts',
  'account.notJson': '{file} is not valid JSON: fix or delete it, then sign in again.',
  'account.noList': '{file} holds no account list: fix or delete it, then sign in again.',
  'account.lockHeld':
    'Another Workspace Sync process kept the account busy for over half a minute ({file}); try again.',
  'account.lockFailed': 'The account could not be locked for a change ({file}: {why}).',
} as const satisfies Record<string, string>;

export type MessageKey = keyof typeof en;
