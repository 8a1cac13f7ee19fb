import type { MessageKey } from './en';

/**
 * German. Typed as exactly English's keys: a key missing here (or one English no longer has)
 * fails `npm run -s typecheck`; `test/shared/i18n.test.ts` checks each message takes the same
 * parameters as its English one.
 */
export const de: Record<MessageKey, string> = {
  'app.name': 'Workspace Sync',
  'app.loading': 'Wird geladen…',
  'app.retry': 'Erneut versuchen',
  'app.cancel': 'Abbrechen',
  'app.save': 'Speichern',
  'app.close': 'Schließen',
  'app.genericError': 'Etwas ist schiefgegangen.',
  'app.connectionLost':
    'Die Verbindung zu Workspace Sync ist abgebrochen. Laden Sie die Seite neu, um sich wieder zu verbinden.',
  'app.listCut':
    'Der Dienst hat mehr aufgelistet, als dieses Fenster behält: Nur die ersten {n, number} werden angezeigt.',

  'nav.label': 'Hauptmenü',
  'nav.status': 'Status',
  'nav.browse': 'Durchsuchen',
  'nav.activity': 'Aktivität',
  'nav.workspaces': 'Arbeitsbereiche',
  'nav.settings': 'Einstellungen',
  'nav.trash': 'Papierkorb',
  'nav.signOut': 'Abmelden',
  'nav.signedInAs': 'Angemeldet als {email}',
  'nav.signedInAsNamed': 'Angemeldet als {name} ({email})',
  'nav.signedOut': 'Abgemeldet: {email}',
  'nav.sessionOnly':
    'Nur für diese Sitzung aufbewahrt: Nachdem Workspace Sync endet, melden Sie sich erneut an.',
  'nav.signInAgain': 'Erneut anmelden',
  'nav.account': 'Angezeigtes Konto',
  'account.choice': '{email} auf {host}',
  'account.choiceNamed': '{name} ({email}) auf {host}',

  'signIn.title': 'Bei Workspace Sync anmelden',
  'signIn.intro':
    'Verbinden Sie sich mit Ihrem Workspace Content Service, um einen Ordner auf diesem Computer synchron zu halten.',
  'signIn.server': 'Serveradresse',
  'signIn.serverPlaceholder': 'files.example.com',
  'signIn.email': 'E-Mail',
  'signIn.password': 'Passwort',
  'signIn.submit': 'Anmelden',
  'signIn.submitting': 'Anmeldung läuft…',
  'signIn.or': 'oder',
  'signIn.withBrowser': 'Mit dem Browser anmelden',
  'signIn.withBrowserHint': 'Öffnet die Anmeldeseite des Dienstes in Ihrem Webbrowser.',
  'signIn.browserWaiting': 'Schließen Sie die Anmeldung im geöffneten Tab ab…',
  'signIn.browserReaching': 'Der Server wird erreicht…',
  'signIn.browserOpenAgain': 'Anmeldeseite öffnen',
  'signIn.browserCancel': 'Abbrechen',
  'signIn.advanced': 'Erweitert',
  'signIn.token': 'Zugriffstoken',
  'signIn.tokenSubmit': 'Mit Token anmelden',
  'signIn.demo': 'Demo ausprobieren',
  'signIn.demoHint':
    'Erkunden Sie einen Beispiel-Arbeitsbereich auf einem lokalen Testserver. Nichts verlässt diesen Computer.',
  'signIn.serverRequired': 'Geben Sie zuerst die Adresse Ihres Servers ein.',
  'signIn.noKeychain':
    'Dieser Computer hat keinen Schlüsselbund, der das Konto sicher aufbewahrt. Wählen Sie, wo es bleiben soll:',
  'signIn.keepLegend': 'Konto aufbewahren',
  'signIn.keepSession': 'Nur für diese Sitzung',
  'signIn.keepSessionHint':
    'Im Arbeitsspeicher, vergessen, sobald dieses Workspace Sync endet: Beim nächsten Mal melden Sie sich erneut an.',
  'signIn.keepFile': 'In einer Datei auf diesem Computer',
  'signIn.keepFileHint':
    'In {file}, nur für Sie lesbar (Berechtigungen 0600), aber nicht verschlüsselt: Das Token steht dort im Klartext.',
  'signIn.failed': 'Anmeldung fehlgeschlagen',

  'status.title': 'Synchronisierungsstatus',
  'status.noPairs': 'Noch wird kein Ordner synchronisiert.',
  'status.setupTitle': 'Wählen Sie, was synchronisiert wird',
  'status.workspace': 'Arbeitsbereich',
  'status.folder': 'Ordner auf diesem Computer',
  'status.folderPlaceholder': '/home/sie/Workspace Sync',
  'status.start': 'Synchronisierung starten',
  'status.starting': 'Wird gestartet…',
  'status.state.starting': 'Wird gestartet…',
  'status.state.scanning': 'Suche nach Änderungen…',
  'status.state.syncing': 'Wird synchronisiert…',
  'status.state.idle': 'Aktuell',
  'status.state.paused': 'Pausiert',
  'status.state.offline': 'Offline: Der Dienst ist nicht verfügbar',
  'status.state.error': 'Synchronisierungsfehler',
  'status.state.needs-attention': 'Braucht Ihre Aufmerksamkeit',
  'status.state.gone':
    'Dieser Arbeitsbereich wurde gelöscht oder wird nicht mehr mit Ihnen geteilt',
  'status.state.signedOut': 'Abgemeldet',
  'status.newFiles': 'Neue Dateien vom Dienst',
  'status.newFilesFull': 'Vollständig herunterladen',
  'status.newFilesOnline': 'Nur online behalten (beim Öffnen heruntergeladen)',
  'status.newFilesHint':
    'Gilt für Dateien, die ab jetzt ankommen: Dateien auf diesem Gerät und solche, die nur online sind, bleiben, wie sie sind.',
  'status.newFilesLabel': 'Neue Dateien vom Dienst ({workspace})',
  'status.syncedTo': 'Synchronisiert mit {dir}',
  'status.items': '{done} von {total} Elementen',
  'status.bytes': '{done} von {total}',
  'status.progress': 'Fortschritt',
  'status.current': 'Jetzt',
  'status.speed': '{perSecond}/s',
  'status.timeLeft': 'noch {duration}',
  'status.lastSync': 'Zuletzt synchronisiert {when}',
  'status.lastSuccess': 'Zuletzt erfolgreich synchronisiert {when}',
  'status.neverSynced': 'Noch nicht synchronisiert',
  'status.failedWhy': 'Grund: {reason}',
  'status.retryNow': 'Jetzt erneut versuchen',
  'status.goneExplain':
    'Die Synchronisierung ist beendet. Die Dateien in {dir} bleiben unverändert auf diesem Computer. Beenden Sie die Synchronisierung, um diesen Ordner aus der Liste zu entfernen; die Dateien bleiben erhalten.',
  'status.signedOutExplain':
    'Der Dienst akzeptiert die Anmeldung von {email} nicht mehr. Dieser Ordner bleibt erhalten und wird wieder synchronisiert, sobald Sie sich erneut anmelden.',
  'status.pause': 'Synchronisierung pausieren',
  'status.resume': 'Synchronisierung fortsetzen',
  'status.openFolder': 'Ordner öffnen',
  'status.pauseLabel': 'Synchronisierung pausieren: {workspace}',
  'status.resumeLabel': 'Synchronisierung fortsetzen: {workspace}',
  'status.openFolderLabel': 'Ordner öffnen: {workspace}',
  'status.retryLabel': 'Jetzt erneut versuchen: {workspace}',
  'status.held.confirmLocal': 'Auch im Dienst löschen',
  'status.held.confirmRemote': 'Hier in den Papierkorb verschieben',
  'status.held.keepRemote': 'Behalten und erneut hochladen',
  'status.held.confirmLocalLabel': 'Auch im Dienst löschen: {workspace}',
  'status.held.confirmRemoteLabel': 'Hier in den Papierkorb verschieben: {workspace}',
  'status.held.keepRemoteLabel': 'Behalten und erneut hochladen: {workspace}',
  'status.problems': 'Probleme',
  'status.noProblems': 'Keine Probleme.',
  'status.conflicts': 'Konflikte',
  'status.noConflicts': 'Keine Konflikte.',
  'status.remove': 'Synchronisierung beenden…',
  'status.removeLabel': 'Synchronisierung beenden: {workspace}…',
  'status.removeTitle': 'Synchronisierung von „{workspace}“ beenden?',
  'status.removeExplain':
    'Workspace Sync hält {dir} nicht länger mit dem Arbeitsbereich „{workspace}“ synchron. Die Dateien bleiben auf diesem Computer; nichts wird gelöscht, weder hier noch auf dem Server.',
  'status.removeSubmit': 'Synchronisierung beenden',
  'status.removing': 'Wird beendet…',

  'browse.title': 'Durchsuchen',
  'browse.workspace': 'Arbeitsbereich',
  'browse.breadcrumbs': 'Ordnerpfad',
  'browse.search': 'Diesen Arbeitsbereich durchsuchen',
  'browse.searchPlaceholder': 'Suchen',
  'browse.sort': 'Sortieren nach',
  'browse.sort.alphabetical': 'Name',
  'browse.sort.modified': 'Zuletzt geändert',
  'browse.sort.size': 'Größe',
  'browse.sort.type': 'Typ',
  'browse.name': 'Name',
  'browse.size': 'Größe',
  'browse.modified': 'Geändert',
  'browse.hidden': 'Verborgen',
  'browse.hiddenHint': 'Von einem Administrator verborgen',
  'browse.empty': 'Dieser Ordner ist leer.',
  'browse.noMatches': 'Nichts passt zu „{query}“.',
  'browse.noWorkspaces': 'Sie haben noch keine Arbeitsbereiche.',
  'browse.folder': 'Ordner',
  'browse.file': 'Datei',
  'browse.openFolder': 'Ordner {name} öffnen',
  'browse.details': 'Details zu {name}',
  'browse.contents': 'Ordnerinhalt',
  'browse.type': 'Typ',
  'browse.results': 'Suchergebnisse',
  'browse.inFolder': 'in {folder}',
  'browse.found':
    '{n, plural, =0 {Nichts gefunden.} one {# Element gefunden.} other {# Elemente gefunden.}}',
  'browse.foundMore':
    'Die ersten {n} gefundenen Elemente: tippen Sie weiter, um die Suche einzugrenzen.',
  'browse.searchSynced': 'Durchsucht wurde, was mit diesem Computer synchronisiert ist.',
  'browse.searchExcluded':
    '{n, plural, one {# Ordner ist} other {# Ordner sind}} auf diesem Computer ausgelassen und nicht durchsucht.',
  'browse.searching':
    'Suche auf dem Dienst: bisher {folders, plural, one {# Ordner} other {# Ordner}} durchgesehen.',
  'browse.searchDone':
    'Alle Ordner durchgesehen ({folders, plural, one {# Ordner} other {# Ordner}}).',
  'browse.searchStopped':
    'Angehalten nach {folders, plural, one {# Ordner} other {# Ordnern}}: nicht durchgesehene Ordner können weitere enthalten.',
  'browse.searchCut':
    'Angehalten bei {folders, plural, one {# Ordner} other {# Ordnern}}, so weit geht eine Suche über den Dienst: nicht durchgesehene Ordner können weitere enthalten.',
  'browse.searchStop': 'Anhalten',
  'browse.state.synced': 'Synchronisiert',
  'browse.state.syncing': 'Wird synchronisiert: noch nicht auf diesem Computer',
  'browse.state.excluded': 'Ausgelassen: auf diesem Computer nicht synchronisiert',
  'browse.state.problem': 'Konnte nicht synchronisiert werden: Der Status sagt, warum',

  'menu.label': 'Aktionen für {name}',
  'menu.copyLink': 'Freigabelink kopieren',
  'menu.details': 'Details öffnen',
  'menu.copied': 'Link kopiert',

  // File operations in Browse (issue 42).
  'edit.upload': 'Dateien hochladen',
  'edit.uploadHint': 'Oder ziehen Sie Dateien und Ordner von Ihrem Computer auf die Liste.',
  'edit.uploadFolder': 'Ordner hochladen',
  'edit.newFolder': 'Neuer Ordner',
  'edit.newFolderTitle': 'Neuer Ordner in {folder}',
  'edit.folderName': 'Ordnername',
  'edit.create': 'Erstellen',
  'edit.rename': 'Umbenennen…',
  'edit.renameTitle': '{name} umbenennen',
  'edit.newName': 'Neuer Name',
  'edit.renameAction': 'Umbenennen',
  'edit.moveTo': 'Verschieben nach…',
  'edit.moveTitle': '{n, plural, one {{name} verschieben} other {# Elemente verschieben}}',
  'edit.moveHere': 'Nach {folder} verschieben',
  'edit.moveFolders': 'Ordner in {folder}',
  'edit.moveUp': 'Hoch zu {folder}',
  'edit.moveKeys': 'Pfeiltasten wählen einen Ordner, Enter öffnet ihn, Rücktaste geht hoch.',
  'edit.delete': 'Löschen…',
  'edit.deleteTitle': '{n, plural, one {{name} löschen?} other {# Elemente löschen?}}',
  'edit.deleteSays':
    '{n, plural, one {Es wird im Dienst für alle im Arbeitsbereich gelöscht, mit allem, was es enthält.} other {Sie werden im Dienst für alle im Arbeitsbereich gelöscht, mit allem, was sie enthalten.}} Der Dienst hat keinen Papierkorb: Dort lässt es sich nicht wiederherstellen.',
  'edit.deleteSynced':
    'Auf Computern, die diesen Arbeitsbereich synchronisieren, legt Workspace Sync die Kopien bei der nächsten Synchronisierung in seinen eigenen Papierkorb, aus dem sie sich wiederherstellen lassen.',
  'edit.deleteAction': 'Im Dienst löschen',
  'edit.selected': '{n, plural, one {# Element ausgewählt} other {# Elemente ausgewählt}}',
  'edit.clearSelection': 'Auswahl aufheben',
  'edit.selectHint':
    'Strg+Klick oder Strg+Leertaste fügt ein Element hinzu, Umschalt+Klick oder Umschalt+Pfeiltasten einen Bereich.',
  'edit.select': '{name} auswählen',
  'edit.created': 'Ordner {name} erstellt.',
  'edit.renamed': 'Umbenannt in {name}.',
  'edit.moved':
    '{n, plural, one {# Element nach {folder} verschoben.} other {# Elemente nach {folder} verschoben.}}',
  'edit.deleted': '{n, plural, one {# Element gelöscht.} other {# Elemente gelöscht.}}',
  'edit.uploading': '{name} wird hochgeladen: {done} von {total}',
  'edit.uploaded': '{n, plural, one {# Datei hochgeladen.} other {# Dateien hochgeladen.}}',
  'edit.uploadFailed': '{name} konnte nicht hochgeladen werden',
  'edit.failed': 'Nicht erledigt',
  'edit.itemFailed': '{name}: {why}',
  'edit.dropHere': 'Dateien hier ablegen, um sie nach {folder} hochzuladen',
  'edit.nameTaken':
    'Der Name {name} ist in diesem Ordner schon vergeben: Wählen Sie einen anderen.',
  'edit.nameEmpty': 'Geben Sie einen Namen ein.',
  'edit.nameSlash': 'Ein Name darf kein / oder \\ enthalten.',
  'edit.roleRefused': 'Ihre Rolle in diesem Arbeitsbereich erlaubt dies nicht.',
  'edit.gone': '{name} ist nicht mehr da: Jemand hat es vielleicht verschoben oder gelöscht.',
  'edit.offline':
    'Der Dienst ist nicht erreichbar: Nichts wurde geändert. Versuchen Sie es wieder, wenn Sie online sind.',
  'edit.moveUnsupported':
    'Dieser Dienst kann nichts verschieben: Laden Sie die Elemente herunter und im neuen Ordner wieder hoch.',
  'edit.intoItself':
    'Ein Ordner kann nicht in sich selbst oder einen Ordner darin verschoben werden.',
  'edit.uploadGone': 'Dieses Hochladen wartet nicht mehr: Starten Sie es erneut.',
  'edit.uploadTooLong':
    'Das Hochladen hat mehr Bytes gesendet als angekündigt: Starten Sie es erneut.',
  'edit.uploadShort':
    'Das Hochladen hat aufgehört, bevor alle Bytes angekommen sind: Starten Sie es erneut.',
  'edit.noCreate':
    'Ihre Rolle hier ({role}) darf keine Dateien oder Ordner hinzufügen: Bitten Sie einen Administrator um Ersteller oder höher.',
  'edit.noChange':
    'Ihre Rolle hier ({role}) darf nicht umbenennen, verschieben oder löschen: Bitten Sie einen Administrator um Mitarbeiter oder höher.',
  'edit.noDeleteOthers':
    'Ihre Rolle hier ({role}) darf nur löschen, was Sie hinzugefügt haben: Bitten Sie einen Administrator um Mitarbeiter oder höher.',
  'edit.offlineOnly': 'Offline nicht verfügbar: Durchsuchen zeigt die synchronisierte Kopie.',
  'edit.roleUnknown': 'Ihre Rolle in diesem Arbeitsbereich ist noch nicht bekannt.',

  'item.panel': 'Details: {name}',
  'item.close': 'Details schließen',
  'item.comments': 'Kommentare',
  'item.noComments': 'Noch keine Kommentare. Beginnen Sie das Gespräch.',
  'item.addComment': 'Kommentar hinzufügen',
  'item.mayNotComment':
    'Ihre Rolle in diesem Arbeitsbereich erlaubt Ihnen, Kommentare zu lesen, aber nicht zu schreiben.',
  'item.commentPlaceholder': 'Kommentar schreiben…',
  'item.post': 'Senden',
  'item.posting': 'Wird gesendet…',
  'item.deleteComment': 'Löschen',
  'item.deleteCommentLabel': 'Löschen: Kommentar von {author}',
  'item.unknownAuthor': 'Jemand',
  'item.share': 'Freigabelink',
  'item.linkEnabled': 'Alle mit dem Link können ansehen',
  'item.linkPassword': 'Passwort des Links',
  'item.expires': 'Link läuft ab am',
  'item.noExpiry': 'Läuft nie ab',
  'item.clearExpiry': 'Ablaufdatum entfernen',
  'item.copy': 'Link kopieren',
  'item.copied': 'Kopiert: {text}',
  'item.copyFailed': 'Der Link konnte nicht kopiert werden.',
  'item.linkOff': 'Freigabe per Link ist ausgeschaltet.',
  'item.passwordSet': 'Ein Passwort ist gesetzt (es wird nie angezeigt).',
  'item.passwordNone': 'Kein Passwort gesetzt.',
  'item.addPassword': 'Passwort festlegen',
  'item.changePassword': 'Passwort ändern',
  'item.removePassword': 'Passwort entfernen',
  'item.savePassword': 'Passwort speichern',
  'item.cancelPassword': 'Abbrechen',
  'item.saving': 'Wird gespeichert…',
  'item.savedOn': 'Gespeichert: Alle mit dem Link können es ansehen.',
  'item.savedOff': 'Gespeichert: Der Link ist ausgeschaltet.',
  'item.savedPassword': 'Gespeichert: Der Link fragt nach seinem Passwort.',
  'item.savedNoPassword': 'Gespeichert: Der Link fragt nach keinem Passwort.',
  'item.savedExpires': 'Gespeichert: Der Link läuft am Ende des {date} ab.',
  'item.savedNoExpiry': 'Gespeichert: Der Link läuft nie ab.',
  'item.linkReadOnly':
    'Nur Moderatoren und Administratoren können die Einstellungen eines Links ändern.',
  'item.linkHidden':
    'Ihre Rolle zeigt keine Freigabelinks: Mitarbeiter und höher sehen sie, Moderatoren und höher ändern sie.',
  'item.people': 'Mit Personen teilen',
  'item.peopleHint':
    'Mehrere Adressen durch Kommas trennen. Jede wird mit dieser Rolle eingeladen.',
  'item.peopleNotAllowed': 'Nur Moderatoren und Administratoren können Personen einladen.',
  'item.linkOptions': 'Link-Optionen: {name}',
  'item.audit': 'Protokoll',
  'item.auditHidden': 'Das Protokoll einer Datei sehen nur Moderatoren und Administratoren.',
  'item.auditEmpty': 'Für diese Datei ist nichts aufgezeichnet.',
  'item.zip': 'Als ZIP herunterladen',
  'item.zipTo': 'Wo das ZIP auf diesem Computer gespeichert wird',
  'item.zipToHint':
    'Ein Ordner (das ZIP wird nach diesem Ordner benannt) oder ein Dateiname; ~ ist Ihr persönlicher Ordner.',
  'item.zipToPlaceholder': '~/Downloads',
  'item.zipSubmit': 'Als ZIP herunterladen',
  'item.zipChoose': 'Als ZIP herunterladen…',
  'item.zipProgress': 'Wird heruntergeladen… bisher {bytes}',
  'item.zipSaved': 'Gespeichert unter {path}',
  'item.zipFailed': 'Die ZIP-Datei konnte nicht gespeichert werden',

  'activity.title': 'Aktivität',
  'activity.filters': 'Filter',
  'activity.filtersSet': '{n, plural, one {# Filter gesetzt} other {# Filter gesetzt}}',
  'activity.workspace': 'Arbeitsbereich',
  'activity.allWorkspaces': 'Alle Arbeitsbereiche',
  'activity.verbs': 'Aktionen',
  'activity.verb.create': 'Erstellt',
  'activity.verb.upload': 'Hochgeladen',
  'activity.verb.read': 'Angesehen',
  'activity.verb.download': 'Heruntergeladen',
  'activity.verb.update': 'Geändert',
  'activity.verb.delete': 'Gelöscht',
  'activity.verb.invite': 'Eingeladen',
  'activity.othersOnly': 'Nur Änderungen anderer',
  'activity.person': 'Person',
  'activity.anyone': 'Alle',
  'activity.from': 'Von',
  'activity.to': 'Bis',
  'activity.reset': 'Filter zurücksetzen',
  'activity.dateLetters': 'TT MM JJJJ',
  'activity.dateHint': 'als {pattern}',
  'activity.dateBad': 'Kein Datum: bitte als {pattern} eingeben.',
  'activity.empty': 'Keine Aktivität passt zu diesen Filtern.',
  'activity.feed': 'Aktivitäten',
  'activity.end': 'Das ist alles.',
  'activity.open': '{name} öffnen',
  'activity.openLabeled': '{label} {name} öffnen',
  'activity.newEvents': '{n, plural, one {# neues Ereignis} other {# neue Ereignisse}}',

  'settings.title': 'Einstellungen',
  'settings.general': 'Allgemein',
  'settings.language': 'Sprache',
  'settings.language.system': 'System',
  'settings.language.en': 'English',
  'settings.language.de': 'Deutsch',
  'settings.languageHint': 'System folgt der Sprache dieses Computers.',
  'settings.notifications': 'Benachrichtigen, wenn andere etwas ändern',
  'settings.notificationsHint':
    'Zeigt eine Benachrichtigung, wenn jemand anderes Ihre Arbeitsbereiche ändert; viele Änderungen auf einmal sind eine Benachrichtigung.',
  'settings.startAtLogin': 'Workspace Sync bei der Anmeldung starten',
  'settings.pollInterval': 'Den Dienst auf Änderungen prüfen alle (Sekunden)',
  'settings.pollIntervalHint':
    'Von {min} bis {max}. Ihre eigenen Änderungen werden sofort gesendet; dies bestimmt das Tempo für Änderungen anderer.',
  'settings.pollIntervalInvalid': 'Wählen Sie eine ganze Zahl an Sekunden von {min} bis {max}.',
  'settings.network': 'Netzwerk',
  'settings.proxy': 'Proxy',
  'settings.proxyPlaceholder': 'http://proxy.example.com:3128',
  'settings.proxyHint':
    'Leer: HTTPS_PROXY, HTTP_PROXY und NO_PROXY des Systems. Sonst geht jede Anfrage über diesen Proxy, http://host:port, mit user:password@ vor dem Host, falls er danach fragt. Gilt sofort.',
  'settings.proxyInvalid.no-scheme':
    'Schreiben Sie den Proxy als URL, die mit http:// beginnt, etwa http://proxy.example.com:3128.',
  'settings.proxyInvalid.scheme':
    'Nur http://- (oder https://-)Proxys sind möglich, nicht {scheme}://. Schreiben Sie ihn etwa als http://proxy.example.com:3128.',
  'settings.proxyInvalid.not-url':
    'Das ist keine gültige URL: Prüfen Sie Host und Port. Schreiben Sie sie etwa als http://proxy.example.com:3128.',
  'settings.proxyInvalid.no-host':
    'Die URL nennt keinen Host. Schreiben Sie sie etwa als http://proxy.example.com:3128.',
  'settings.proxyInvalid.path':
    'Ein Proxy ist nur Host und Port, ohne Pfad. Schreiben Sie ihn etwa als http://proxy.example.com:3128.',
  'settings.proxyInvalid.no-user':
    'Es gibt ein Passwort, aber keinen Benutzernamen: Schreiben Sie user:password@ vor den Host.',
  'settings.ignore': 'Ausschlussmuster',
  'settings.ignoreLabel': 'Dateien und Ordner, die nie synchronisiert werden, ein Muster pro Zeile',
  'settings.ignoreHint':
    'Gitignore-Syntax, für jeden synchronisierten Ordner: *.log schließt Protokolldateien aus, build/ einen Ordner namens build, !keep.log holt einen Namen zurück. Die eigene .workspace-sync-ignore eines Ordners gilt auch. Bereits synchronisierte Dateien bleiben auf dem Server.',
  'settings.ignoreSave': 'Muster speichern',
  'settings.bandwidth': 'Bandbreite',
  'settings.uploadLimit': 'Upload-Grenze (KB/s)',
  'settings.downloadLimit': 'Download-Grenze (KB/s)',
  'settings.limitHint':
    '0 für keine Grenze. 1 KB sind 1.000 Byte; alle Ihre synchronisierten Ordner teilen sie, und eine Änderung gilt sofort, auch für laufende Übertragungen.',
  'settings.limitInvalid':
    'Wählen Sie eine ganze Zahl an KB/s von 0 (keine Grenze) bis {max, number}.',
  'settings.pairs': 'Synchronisierte Ordner',
  'settings.noPairs': 'Noch wird kein Ordner synchronisiert.',
  'settings.pause': 'Synchronisierung pausieren: {workspace}',
  'settings.resume': 'Synchronisierung fortsetzen: {workspace}',
  'settings.saving': 'Wird gespeichert…',
  'settings.saved': 'Gespeichert',
  'settings.notSaved': 'Nicht gespeichert',

  'workspaces.title': 'Arbeitsbereiche',
  'workspaces.empty': 'Sie haben noch keine Arbeitsbereiche. Erstellen Sie einen, um zu beginnen.',
  'workspaces.create': 'Neuer Arbeitsbereich',
  'workspaces.name': 'Name',
  'workspaces.color': 'Farbe',
  'workspaces.createSubmit': 'Arbeitsbereich erstellen',
  'workspaces.role': 'Ihre Rolle',
  'workspaces.owner': 'Eigentümer',
  'workspaces.rename': 'Umbenennen',
  'workspaces.renameLabel': 'Umbenennen: {name}',
  'workspaces.newName': 'Neuer Name für {name}',
  'workspaces.colorLabel': 'Farbe von {name}',
  'workspaces.delete': 'Löschen',
  'workspaces.deleteLabel': 'Löschen: {name}',
  'workspaces.deleteTitle': '„{name}“ löschen?',
  'workspaces.deleteWarning':
    'Damit werden der Arbeitsbereich und alles darin für alle Mitglieder gelöscht. Das kann nicht rückgängig gemacht werden.',
  'workspaces.deleteConfirm': 'Geben Sie {name} zur Bestätigung ein',
  'workspaces.deleteSynced':
    '{n, plural, one {Er wird auf diesem Computer synchronisiert, in diesem Ordner:} other {Er wird auf diesem Computer synchronisiert, in diesen # Ordnern:}}',
  'workspaces.deleteLocal':
    'Die lokale Kopie bleibt unverändert auf diesem Computer: Die Synchronisierung endet, dort wird nichts gelöscht, und „Status“ bietet dann „Synchronisierung beenden“ an.',
  'workspaces.deleteNotSynced': 'Er wird auf diesem Computer nicht synchronisiert.',
  'workspaces.deleteSubmit': 'Arbeitsbereich löschen',
  'workspaces.created': '{name} erstellt.',
  'workspaces.deleted': '{name} gelöscht.',
  'workspaces.renamed': 'Umbenannt in {name}.',

  'attention.theirs': 'Die Version des Dienstes',
  'attention.mine': 'Ihre Version',
  'attention.open': 'Öffnen',
  'attention.show': 'Im Ordner zeigen',
  'attention.openLabel': 'Öffnen: {name}',
  'attention.showLabel': 'Im Ordner zeigen: {name}',
  'attention.keepMine': 'Meine behalten',
  'attention.keepTheirs': 'Ihre behalten',
  'attention.keepBoth': 'Beide behalten',
  'attention.keepMineLabel': 'Meine behalten (Ihre Version von {name})',
  'attention.keepTheirsLabel': 'Ihre behalten (die Version des Dienstes von {name})',
  'attention.keepBothLabel': 'Beide behalten (beide Versionen von {name})',
  'attention.keepMineHint':
    'Ihre Version ersetzt die des Dienstes (die dort als vorherige Version bleibt); die Kopie verschwindet.',
  'attention.keepTheirsHint':
    'Ihre Kopie kommt in den Papierkorb; die Version des Dienstes bleibt.',
  'attention.keepBothHint': 'Beide Dateien bleiben, wie sie sind.',
  'attention.retry': 'Erneut versuchen',
  'attention.dismiss': 'Ausblenden',
  'attention.retryLabel': 'Erneut versuchen: {name}',
  'attention.dismissLabel': 'Ausblenden: das Problem mit {name}',
  'attention.unnamed': 'diesem Element',
  'attention.dismissedCount':
    '{n, plural, one {# ausgeblendetes Problem wird nicht gezeigt.} other {# ausgeblendete Probleme werden nicht gezeigt.}}',

  'setup.addFolder': 'Ordner hinzufügen',
  'setup.account': 'Konto',
  'setup.accountOption': '{email} — {server}',
  'setup.alreadySynced': '{name} (bereits synchronisiert)',
  'setup.alreadySyncedHint':
    'Dieser Arbeitsbereich wird bereits mit einem anderen Ordner auf diesem Computer synchronisiert.',
  'setup.folderHint':
    'Ein neuer Ordner wird angelegt, falls es ihn nicht gibt. ~ ist Ihr persönlicher Ordner.',
  'setup.choose': 'Auswählen…',
  'setup.checking': 'Ordner wird geprüft…',
  'setup.defaultFolder': '~/Workspace Sync/{name}',
  'setup.accountOf': 'Konto: {email}',
  'setup.mergeAsk':
    '{more, select, yes {{folder} enthält bereits mehr als {n, number} Objekte.} other {{n, plural, one {{folder} enthält bereits # Objekt.} other {{folder} enthält bereits # Objekte.}}}} Beim Synchronisieren werden sie nach „{workspace}“ hochgeladen, neben das, was der Arbeitsbereich enthält.',
  'setup.merge': 'Zusammenführen',
  'setup.chooseOther': 'Anderen Ordner wählen',

  'picker.title': 'Ordner auswählen',
  'picker.path': 'Ordnerpfad',
  'picker.home': 'Persönlicher Ordner',
  'picker.up': 'Nach oben',
  'picker.upLabel': 'Einen Ordner nach oben',
  'picker.folders': 'Ordner in {name}',
  'picker.none': 'Hier gibt es keine Ordner.',
  'picker.more': 'Nur die ersten Ordner werden gezeigt; geben Sie für andere den Pfad ein.',
  'picker.choose': '„{name}“ auswählen',
  'picker.keys': 'Pfeiltasten bewegen, Eingabe öffnet einen Ordner, Rücktaste geht nach oben.',

  'accounts.add': 'Konto hinzufügen',
  'accounts.addTitle': 'Ein Konto hinzufügen',
  'accounts.others': 'Weitere Konten',
  'accounts.signOutOf': 'Abmelden: {email}',
  'trash.title': 'Papierkorb',
  'trash.explain':
    'Was die Synchronisierung auf diesem Computer aus Ihren synchronisierten Ordnern entfernt hat: auf dem Server gelöscht, durch „Meine behalten“ oder „Ihre behalten“ ersetzt oder in einem hier nicht mehr synchronisierten Ordner. „Wiederherstellen“ legt ein Element zurück in seinen Ordner, und es wird wieder synchronisiert.',
  'trash.empty': 'Der Papierkorb ist leer.',
  'trash.from': 'War {path} in {dir}',
  'trash.when': 'In den Papierkorb verschoben am {when}',
  'trash.restore': 'Wiederherstellen',
  'trash.restoreLabel': '{name} wiederherstellen',
  'trash.show': 'Zeigen',
  'trash.showLabel': '{name} im Dateimanager zeigen',
  'trash.restored': '{name} wiederhergestellt: Es ist wieder {path}.',
  'undo.undo': 'Rückgängig',
  'undo.commentDeleted': 'Kommentar gelöscht.',
  'undo.commentUndoLabel': 'Rückgängig: den gelöschten Kommentar erneut senden',
  'undo.commentBack': 'Erneut gesendet, als neuer Kommentar von jetzt.',
  'undo.keptTheirs':
    'Die Version des Dienstes von {name} wurde behalten: Ihre Kopie liegt im Papierkorb.',
  'undo.keptMine':
    'Ihre Version von {name} wurde behalten: Die ersetzte Version liegt im Papierkorb.',
  'undo.undoLabel': 'Rückgängig: {name} aus dem Papierkorb zurücklegen',
  'undo.undone': 'Aus dem Papierkorb zurückgelegt: {path}. Es wird als neue Datei synchronisiert.',
  'undo.notInTrash': '{name} ist nicht mehr im Papierkorb.',
  'signOut.title': '{email} abmelden?',
  'signOut.folders':
    '{n, plural, one {Dieser Ordner wird nicht mehr synchronisiert:} other {Diese # Ordner werden nicht mehr synchronisiert:}}',
  'signOut.kept':
    'Ihre Dateien bleiben auf diesem Computer; nichts wird gelöscht, weder hier noch auf dem Server. Um sie wieder zu synchronisieren, melden Sie sich an und wählen Sie sie erneut.',
  'signOut.noFolders':
    'Mit diesem Konto wird auf diesem Computer kein Ordner synchronisiert. Nichts wird gelöscht, weder hier noch auf dem Server.',
  'signOut.submit': 'Abmelden',
  'signOut.signingOut': 'Wird abgemeldet…',

  'nav.about': 'Über',
  'signIn.serverHint': 'Der Hostname genügt, etwa files.example.com.',
  'signIn.orPassword': 'oder melden Sie sich mit E-Mail und Passwort an',

  'selection.open': 'Ordnerauswahl…',
  'selection.openLabel': 'Ordnerauswahl für {workspace}…',
  'selection.title': 'Zu synchronisierende Ordner von „{workspace}“',
  'selection.explain':
    'Nicht angehakte Ordner werden auf diesem Computer nicht synchronisiert. Ein hier abgewählter Ordner kommt auf diesem Computer in den Papierkorb, außer etwas darin wurde noch nicht gesendet; im Dienst wird nichts gelöscht. Ordner, die später im Dienst angelegt werden, werden synchronisiert.',
  'selection.legend': 'Ordner, die auf diesem Computer synchronisiert werden',
  'selection.none': 'Dieser Arbeitsbereich hat keine Ordner: Er wird ganz synchronisiert.',
  'selection.expand': 'Ordner in {name} zeigen',
  'selection.collapse': 'Ordner in {name} ausblenden',
  'selection.deeper': 'Weiter unten nicht synchronisiert',
  'selection.saving': 'Wird gespeichert…',

  'members.open': 'Mitglieder',
  'members.openLabel': 'Mitglieder von {workspace}',
  'members.title': 'Mitglieder von {workspace}',
  'members.yourRole': 'Ihre Rolle hier: {role}.',
  'members.noRole': 'Ihre Rolle hier ist nicht bekannt.',
  'members.list': 'Mitglieder',
  'members.name': 'Name',
  'members.email': 'E-Mail',
  'members.role': 'Rolle',
  'members.actions': 'Aktionen',
  'members.you': 'Sie',
  'members.owner': 'Eigentümer',
  'members.pending': 'Eingeladen, noch nicht beigetreten',
  'members.unnamed': 'Noch kein Name',
  'members.readOnly': 'Mit Ihrer Rolle können Sie die Mitglieder sehen, aber nicht ändern.',
  'members.roleOf': 'Rolle von {who}',
  'members.change': 'Ändern',
  'members.changeLabel': '{who} die Rolle „{role}“ geben',
  'members.changed': '{who} hat jetzt die Rolle „{role}“.',
  'members.remove': 'Entfernen',
  'members.removeLabel': '{who} aus {workspace} entfernen',
  'members.removeTitle': '{who} aus {workspace} entfernen?',
  'members.removeExplain':
    '{who} kann die Dateien des Arbeitsbereichs nicht mehr sehen oder synchronisieren. Was bereits synchronisiert wurde, bleibt auf den Computern dieser Person; Sie können sie später erneut einladen.',
  'members.withdrawLabel': 'Einladung an {email} zurückziehen',
  'members.withdrawTitle': 'Einladung an {email} zurückziehen?',
  'members.withdrawExplain':
    '{email} kann mit dieser Einladung nicht mehr beitreten; Sie können später erneut einladen.',
  'members.removeSubmit': 'Entfernen',
  'members.withdrawSubmit': 'Zurückziehen',
  'members.removing': 'Wird entfernt…',
  'members.removed': '{who} wurde aus {workspace} entfernt.',
  'members.withdrawn': 'Die Einladung an {email} wurde zurückgezogen.',
  'members.inviteTitle': 'Personen einladen',
  'members.inviteEmails': 'E-Mail-Adressen',
  'members.inviteEmailsPlaceholder': 'name@example.com',
  'members.inviteEmailsHint': 'Trennen Sie mehrere Adressen durch Kommas.',
  'members.inviteRole': 'Rolle',
  'members.inviteSubmit': 'Einladen',
  'members.inviting': 'Wird eingeladen…',
  'members.invited':
    '{count, plural, one {# Person mit der Rolle „{role}“ eingeladen.} other {# Personen mit der Rolle „{role}“ eingeladen.}}',
  'members.alreadyMembers':
    '{count, plural, one {{emails} ist bereits Mitglied.} other {{emails} sind bereits Mitglieder.}}',
  'members.refused':
    '{count, plural, one {{emails} wurde nicht eingeladen: Der Dienst hat die Adresse nicht angenommen.} other {{emails} wurden nicht eingeladen: Der Dienst hat die Adressen nicht angenommen.}}',
  'members.rolesTitle': 'Was jede Rolle darf',
  'members.rolesCaption': 'Jede Rolle darf auch alles, was die Rollen darunter dürfen.',
  'members.roleColumn': 'Rolle',
  'members.mayColumn': 'Darf',
  'members.yourRoleMark': '{role} (Ihre Rolle)',
  'members.roleName.Administrator': 'Administrator',
  'members.roleName.Moderator': 'Moderator',
  'members.roleName.Collaborator': 'Mitarbeiter',
  'members.roleName.Creator': 'Ersteller',
  'members.roleName.Downloader': 'Herunterlader',
  'members.roleName.Printer': 'Drucker',
  'members.roleName.Viewer': 'Betrachter',
  'members.roleMay.Administrator': 'Die Einstellungen des Arbeitsbereichs ändern.',
  'members.roleMay.Moderator':
    'Personen einladen und ihre Rollen ändern, Freigabelinks ändern, jeden Kommentar löschen, den Verlauf einer Datei lesen.',
  'members.roleMay.Collaborator':
    'Jeden Ordner und jede Datei anlegen, hochladen, umbenennen, verschieben und löschen; Freigabelinks lesen.',
  'members.roleMay.Creator':
    'Hochladen und anlegen; selbst Angelegtes löschen; kommentieren; herunterladen.',
  'members.roleMay.Downloader': 'Dateien auflisten und herunterladen.',
  'members.roleMay.Printer': 'Dateien auflisten und ihre Details lesen, ohne sie herunterzuladen.',
  'members.roleMay.Viewer':
    'Dateien auflisten und ihre Details lesen, ohne herunterzuladen oder zu kommentieren.',

  // Files on demand in Browse (issue 41): an item's badge, its menu's and panel's actions.
  'files.onDevice.full': 'Auf diesem Gerät',
  'files.onDevice.online': 'Nur online',
  'files.onDevice.partly': 'Teilweise auf diesem Gerät',
  'files.onDevice.pinned': 'Immer auf diesem Gerät behalten',
  'files.onDevice.title': 'Auf diesem Gerät',
  'files.onDevice.count':
    '{online, number} von {files, plural, one {# Datei} other {# Dateien}} nur online',
  'files.downloadNow': 'Jetzt herunterladen',
  'files.alwaysKeep': 'Immer auf diesem Gerät behalten',
  'files.freeUp': 'Speicherplatz freigeben',
  'files.freeUpPinned':
    'Schalten Sie „Immer auf diesem Gerät behalten“ aus, um seinen Speicherplatz freizugeben.',
  'files.downloading': '{name} wird heruntergeladen…',
  'files.downloaded': '{name} ist jetzt auf diesem Gerät.',
  'files.downloadWaits':
    '{name} ist noch nicht heruntergeladen: Es kommt mit der nächsten Synchronisierung dieses Arbeitsbereichs (unter Status steht, worauf sie wartet).',
  'files.kept': '{name} wird jetzt immer auf diesem Gerät behalten.',
  'files.unkept':
    '{name} wird nicht mehr immer behalten: Es bleibt auf diesem Gerät, bis Sie seinen Speicherplatz freigeben.',
  'files.freed':
    'Speicherplatz freigegeben: {name} ist jetzt nur online. „Jetzt herunterladen“ holt es zurück.',
  'files.onDemandFailed': 'Nicht ausgeführt',
  'files.open': 'Öffnen',
  'files.showInFolder': 'Im Ordner zeigen',
  'files.openInBrowser': 'Im Browser öffnen',
  'files.opened': '{name} geöffnet.',
  'files.shown': '{name} in seinem Ordner gezeigt.',
  'files.openedInBrowser': 'Die Seite von {name} wurde in Ihrem Browser geöffnet.',
  'files.openFailed': 'Konnte nicht geöffnet werden',
  'files.openFile': '{name} öffnen',
  'files.thumbnail': 'Vorschau von {name}',
  'files.offline': 'Offline: Der Dienst ist nicht verfügbar',
  'files.offlineHint': 'Gezeigt wird, was zuletzt auf diesen Computer synchronisiert wurde.',
  'files.offlineNone': 'Noch kein Arbeitsbereich ist auf diesen Computer synchronisiert.',
  'files.goOnline': 'Jetzt erneut versuchen',
  'files.keys': 'Pfeiltasten bewegen, Eingabe öffnet, Rücktaste geht nach oben, / sucht.',
  'files.up': 'Einen Ordner nach oben',
  'files.details': 'Details',
  'files.size': 'Größe',
  'files.type': 'Typ',
  'files.modified': 'Geändert',
  'files.created': 'Erstellt',
  'files.by': 'Erstellt von',
  'files.version': 'Version',
  'files.unknown': 'Vom Dienst nicht angegeben',
  'files.folderType': 'Ordner',
  'files.type.image': '{ext}-Bild',
  'files.type.video': '{ext}-Video',
  'files.type.audio': '{ext}-Audiodatei',
  'files.type.archive': '{ext}-Archiv',
  'files.type.spreadsheet': '{ext}-Tabelle',
  'files.type.presentation': '{ext}-Präsentation',
  'files.type.pdf': 'PDF-Dokument',
  'files.type.document': '{ext}-Dokument',
  'files.type.code': '{ext}-Quelltextdatei',
  'files.type.text': '{ext}-Textdatei',
  'files.type.other': '{ext}-Datei',
  'files.type.none': 'Datei',

  'layout.openMenu': 'Menü zeigen',
  'layout.closeMenu': 'Menü ausblenden',
  'layout.skip': 'Zum Inhalt springen',

  'feed.today': 'Heute',
  'feed.yesterday': 'Gestern',
  'feed.burst':
    '{who} – {did}: {kind, select, file {{n, plural, one {# Datei} other {# Dateien}}} other {{n, plural, one {# Ordner} other {# Ordner}}}}',
  'feed.burstIn':
    '{who} – {did}: {kind, select, file {{n, plural, one {# Datei} other {# Dateien}}} other {{n, plural, one {# Ordner} other {# Ordner}}}} in {where}',
  'feed.showOwnReads': 'Meine eigenen Downloads und Ansichten zeigen',
  'feed.ownReadsHint':
    'Ihre Synchronisierungen laden Dateien in Ihrem Namen herunter: Diese Downloads und Ihre Ansichten werden eingeklappt, außer Sie lassen sie zeigen.',
  'feed.folded':
    '{n, plural, one {# eigener Download oder eigene Ansicht ist eingeklappt.} other {# eigene Downloads und Ansichten sind eingeklappt.}}',
  'feed.showFolded': 'Zeigen',

  // Ein Ereignis in der Sprache des Fensters (src/shared/event-words.ts): Partizip am Ende.
  'event.someone': 'Jemand mit dem Link',
  'event.label':
    '{kind, select, file {Datei} folder {Ordner} workspace {Arbeitsbereich} other {{label}}}',
  'event.named': '{label} {name}',
  'event.object.acc':
    '{kind, select, file {die Datei} folder {den Ordner} workspace {den Arbeitsbereich} other {{label}}} {name}',
  'event.object.dat':
    '{kind, select, file {der Datei} folder {dem Ordner} workspace {dem Arbeitsbereich} other {{label}}} {name}',
  'event.object.zu':
    '{kind, select, file {zur Datei} folder {zum Ordner} workspace {zum Arbeitsbereich} other {zu {label}}} {name}',
  'event.object.in':
    '{kind, select, file {in der Datei} folder {im Ordner} workspace {im Arbeitsbereich} other {in {label}}} {name}',
  'event.compact': '{object}{c, select, none {} other { ({complement})}}',
  'event.complement.from': 'vorher „{name}“',
  'event.complement.movedFrom': 'aus {name}',
  'event.complement.invited': '{email} als {role}',
  'event.complement.role': '{member}: {from} → {to}',
  'event.complement.quote': '„{text}“',
  'event.did.created': 'erstellt',
  'event.did.uploaded': 'hochgeladen',
  'event.did.viewed': 'angesehen',
  'event.did.downloaded': 'heruntergeladen',
  'event.did.updated': 'aktualisiert',
  'event.did.deleted': 'gelöscht',
  'event.did.renamed': 'umbenannt',
  'event.did.moved': 'verschoben',
  'event.did.commented': 'kommentiert',
  'event.did.commentDeleted': 'Kommentar gelöscht',
  'event.did.linkUpdated': 'Link geändert',
  'event.did.invited': 'eingeladen',
  'event.did.memberRemoved': 'Mitglied entfernt',
  'event.did.roleChanged': 'Rolle geändert',
  'event.line.created':
    '{subject} hat {object} erstellt{c, select, none {} other { ({complement})}}',
  'event.line.uploaded':
    '{subject} hat {object} hochgeladen{c, select, none {} other { ({complement})}}',
  'event.line.viewed':
    '{subject} hat {object} angesehen{c, select, none {} other { ({complement})}}',
  'event.line.downloaded':
    '{subject} hat {object} heruntergeladen{c, select, none {} other { ({complement})}}',
  'event.line.updated':
    '{subject} hat {c, select, from {{before} in {name} umbenannt} none {{object} aktualisiert} other {{object} aktualisiert ({complement})}}',
  'event.line.deleted':
    '{subject} hat {object} gelöscht{c, select, none {} other { ({complement})}}',
  'event.line.renamed':
    '{subject} hat {c, select, from {{before} in {name}} none {{object}} other {{object} ({complement})}} umbenannt',
  'event.line.moved':
    '{subject} hat {object}{c, select, from { {complement}} none {} other { ({complement})}} verschoben',
  'event.line.commented':
    '{subject} hat {object} kommentiert{c, select, none {} other {: {complement}}}',
  'event.line.commentDeleted':
    '{subject} hat einen Kommentar {objectZu} gelöscht{c, select, none {} other { ({complement})}}',
  'event.line.linkUpdated':
    '{subject} hat den Link {objectZu} geändert{c, select, none {} other { ({complement})}}',
  'event.line.invited':
    '{subject} hat {c, select, none {jemanden} other {{complement}}} in {object} eingeladen',
  'event.line.memberRemoved':
    '{subject} hat {c, select, none {ein Mitglied} other {{complement}}} aus {objectDat} entfernt',
  'event.line.roleChanged':
    '{subject} hat {objectIn} eine Rolle geändert{c, select, none {} other {: {complement}}}',
  'event.line.other':
    '{subject} – {predicate}{o, select, none {} other {: {object}}}{c, select, none {} other { ({complement})}}',

  'about.title': 'Über Workspace Sync',
  'about.version': 'Version',
  'about.system': 'System',
  'about.node': 'Node.js',
  'about.electron': 'Electron',
  'about.noElectron': 'Nicht verwendet (dieses Fenster läuft in einem Browser)',
  'about.pairs': 'Synchronisierte Ordner',
  'about.pairState': '{workspace}: {state}',
  'about.logs': 'Protokolle',
  'about.logsHint':
    'Was Workspace Sync getan hat und warum, für Sie oder den Support. Protokolle enthalten nie ein Token oder Passwort.',
  'about.openLogs': 'Protokolle öffnen',
  'about.diagnostics': 'Diagnose',
  'about.diagnosticsHint':
    'Kopiert die Versionen, den Zustand jedes synchronisierten Ordners und seine letzten Probleme, um sie in eine Supportanfrage einzufügen. Nie ein Token, Passwort oder eine E-Mail-Adresse; Datei-, Ordner-, Arbeitsbereichs- und Servernamen nur, wenn Sie sie einschließen.',
  'about.includeNames': 'Datei-, Ordner-, Arbeitsbereichs- und Servernamen einschließen',
  'about.copy': 'Diagnose kopieren',
  'about.copied': 'Diagnose in die Zwischenablage kopiert.',
  'about.copyFailed': 'Die Diagnose konnte nicht kopiert werden',
  'about.whatWasCopied': 'Was kopiert wurde',

  'backend.generic':
    'In Workspace Sync ist etwas schiefgegangen; das Protokoll enthält die Einzelheiten.',
  'backend.invalidRequest': 'Ungültige Anfrage an {method}: {issues}.',
  'backend.badRequest': 'Eine Anfrage ist JSON mit „id“, „method“ und „params“.',
  'backend.noMethod': 'Es gibt keine Methode „{method}“.',
  'backend.shuttingDown': 'Workspace Sync wird beendet.',
  'backend.browserReplaced': 'Eine neuere Anmeldung über den Browser hat diese ersetzt.',
  'backend.badDate':
    '{field, select, expiry {Das Ablaufdatum} from {„Von“} other {„Bis“}} ist kein gültiges Datum mit Uhrzeit.',
  'backend.demoOnlySandbox': 'Die Demo gibt es nur, wenn mit --sandbox gestartet wurde.',
  'backend.noFileManager':
    'Auf diesem Computer wurde kein Programm zum Öffnen von Ordnern gefunden: Der Ordner ist {dir}; öffnen Sie ihn in Ihrem Dateimanager.',
  'backend.noFileManagerLogs':
    'Auf diesem Computer wurde kein Programm zum Öffnen von Ordnern gefunden: Die Protokolle liegen in {dir}; öffnen Sie den Ordner in Ihrem Dateimanager.',
  'backend.openFailed':
    '{program} konnte {path} nicht öffnen (beendet mit Code {code}): Öffnen Sie es in Ihrem Dateimanager oder legen Sie ein Standardprogramm dafür fest.',
  'backend.systemOpenFailed':
    'Das System konnte {path} nicht öffnen ({reason}): Öffnen Sie es in Ihrem Dateimanager oder legen Sie ein Standardprogramm dafür fest.',
  'backend.systemOpenFailedLogs':
    'Das System konnte den Protokollordner nicht öffnen ({reason}): Die Protokolle liegen in {dir}; öffnen Sie den Ordner in Ihrem Dateimanager.',
  'backend.noSaveDialog':
    'Geben Sie ein, wo das ZIP gespeichert wird (dieses Fenster hat keinen Systemdialog).',
  'backend.openFailedLogs':
    '{program} konnte den Protokollordner nicht öffnen (beendet mit Code {code}): Die Protokolle liegen in {dir}; öffnen Sie den Ordner in Ihrem Dateimanager.',
  'backend.nameWorkspace': 'Geben Sie dem Arbeitsbereich einen Namen.',
  'backend.defaultView': 'Die Standardansicht ist Liste oder Raster.',
  'backend.confirmName': 'Geben Sie zur Bestätigung den Namen des Arbeitsbereichs ein.',
  'backend.writeSomething': 'Schreiben Sie etwas, bevor Sie es veröffentlichen.',
  'backend.linkPassword': 'Wählen Sie ein Passwort für den Link.',
  'backend.linkPasswordRequired':
    'Dieser Dienst verlangt für jeden Freigabelink ein Passwort: Wählen Sie eines, um den Link einzuschalten.',
  'backend.fromBeforeTo': '„Von“ muss vor „Bis“ liegen.',
  'backend.auditForbidden': 'Das Protokoll einer Datei sehen nur Moderatoren und Administratoren.',
  'backend.noSystemDialog':
    'Wählen Sie den Ordner in der Liste (dieses Fenster hat keinen Systemdialog).',
  'backend.enterEmail': 'Geben Sie die E-Mail-Adresse Ihres Kontos ein.',
  'backend.enterPassword': 'Geben Sie Ihr Passwort ein.',
  'backend.enterToken': 'Fügen Sie ein Zugriffstoken ein.',
  'backend.signInRefusedOf': '{server} hat die Anmeldung von {email} abgelehnt: {reason}',
  'backend.signInRefused': '{server} hat die Anmeldung abgelehnt: {reason}',
  'backend.signInRefusedNoReason': 'Die Anmeldung wurde abgelehnt.',
  'backend.browserIncomplete':
    'Die Anmeldung über den Browser wurde nicht abgeschlossen: Versuchen Sie es erneut.',
  'backend.tokenRefused': '{server} hat das Zugriffstoken abgelehnt (abgelaufen oder widerrufen).',
  'backend.notSignedInAgain': 'Dieses Konto ist nicht angemeldet: Melden Sie sich erneut an.',
  'backend.notSignedIn': 'Dieses Konto ist nicht angemeldet.',
  'backend.noKeychain':
    'Auf diesem Computer ist kein Schlüsselbund verfügbar, um das Konto zu merken ({problem}): Bewahren Sie es nur für diese Sitzung oder in einer Datei auf.',
  'backend.notAServer':
    '„{raw}“ ist keine Serveradresse: Geben Sie eine wie files.example.com ein.',
  'backend.notListed':
    'Hier öffnen sich nur Dateien, die ein Sync-Ordner als Konflikt oder Problem aufführt.',
  'backend.notInside': '{path} ist kein Pfad innerhalb des Sync-Ordners.',
  'backend.goneFromFolder': '{path} ist nicht mehr im Sync-Ordner.',
  'backend.leadsOutside': '{path} führt aus dem Sync-Ordner hinaus: Es wird nicht geöffnet.',
  'backend.throughLink': '{path} wird über einen Link erreicht: Es wird nicht geöffnet.',
  'backend.noProgram':
    'Auf diesem Computer wurde kein Programm zum Öffnen gefunden: Es ist {path}; öffnen Sie es in Ihrem Dateimanager.',
  'backend.noReverseOrder':
    'Dieser Server sagt nicht, wie viele Elemente ein Ordner enthält; er kann daher nicht umgekehrt aufgelistet werden.',
  'backend.pairGone': 'Dieser synchronisierte Ordner wird nicht mehr synchronisiert.',
  'backend.trashGone': 'Dieses Element ist nicht mehr im Papierkorb.',
  'backend.trashRootGone': 'Sein synchronisierter Ordner {dir} ist nicht mehr auf diesem Computer.',
  'backend.workspaceNotSynced':
    'Dieser Arbeitsbereich wird nicht mit diesem Computer synchronisiert.',
  'backend.roleNoDownload': 'Ihre Rolle erlaubt nicht, {name} hier herunterzuladen.',
  'backend.onDemand.pinned':
    '{name} wird immer auf diesem Gerät behalten: Schalten Sie „Immer auf diesem Gerät behalten“ aus, um seinen Speicherplatz freizugeben.',
  'backend.onDemand.pinnedAbove':
    '{name} bleibt auf diesem Gerät, weil {folder} immer behalten wird: Schalten Sie das bei {folder} aus.',
  'backend.onDemand.notYet':
    '{name} ist nur online und konnte jetzt nicht heruntergeladen werden: Es kommt mit der nächsten Synchronisierung (unter Status steht, worauf sie wartet).',
  'backend.notSyncedYet': 'Dieses Element ist noch nicht mit diesem Computer synchronisiert.',
  'backend.linkOff':
    'Sein Freigabelink ist ausgeschaltet: Schalten Sie ihn in den Details ein, um ihn im Browser zu öffnen.',
  'backend.folderNotFound': 'Dieser Ordner wurde nicht gefunden.',
  'backend.folderGone':
    'Dieser Ordner wurde nicht gefunden: Er wurde gelöscht, oder Sie haben keinen Zugriff mehr.',
  'backend.enterInvite': 'Geben Sie eine E-Mail-Adresse zum Einladen ein.',
  'backend.inviteMax':
    '{n, plural, one {Laden Sie höchstens # Adresse auf einmal ein.} other {Laden Sie höchstens # Adressen auf einmal ein.}}',
  'backend.roleKept': 'Der Dienst hat die Rolle {role} behalten; versuchen Sie es erneut.',
  'backend.overlaps':
    '{dir} synchronisiert bereits „{workspace}“: Wählen Sie einen Ordner außerhalb davon.',
  'backend.retryPaused': 'Dieser Ordner ist pausiert: Setzen Sie ihn fort, um zu synchronisieren.',
  'backend.noHeldDeletes': 'Keine Löschungen warten auf eine Antwort.',
  'backend.putBack':
    'Diese Elemente wurden im Sync-Ordner entfernt: Um sie zu behalten, legen Sie sie dort wieder ab.',
  'backend.pairNotFound': 'Diesen Sync-Ordner gibt es nicht mehr.',
  'backend.fullPath':
    'Wählen Sie den lokalen Ordner mit seinem vollständigen Pfad (zum Beispiel ~/Q3 oder /home/ann/Q3).',
  'backend.chooseFolder': 'Wählen Sie einen Ordner auf diesem Computer.',
  'backend.notExists': '{path} existiert nicht.',
  'backend.isFile': '{path} ist eine Datei, kein Ordner.',
  'backend.permission': '{path} kann nicht geöffnet werden: Zugriff verweigert.',
  'backend.cannotList': '{path} kann nicht aufgelistet werden.',
  'backend.outsideHome':
    '{path} liegt außerhalb Ihres persönlichen Ordners: Wählen Sie einen Ordner unter {home}.',
  'backend.zipFullPath':
    'Wählen Sie mit dem vollständigen Pfad, wo das ZIP gespeichert wird (zum Beispiel ~/Downloads oder /home/ann/Downloads).',
  'backend.exists': '{path} existiert bereits: Wählen Sie einen anderen Namen.',
  'backend.noSuchFolder': 'Der Ordner {dir} existiert nicht: Wählen Sie einen vorhandenen Ordner.',
  'backend.tooManyZips': 'In {dir} liegen bereits zu viele ZIPs dieses Ordners.',
  'backend.cannotWrite': 'In {dir} kann nicht geschrieben werden: Wählen Sie einen anderen Ordner.',
  'backend.diskFull': 'Der Datenträger mit {dir} ist voll.',

  'progress.archive':
    '{files, plural, one {# Datei wird in einem Archiv heruntergeladen} other {# Dateien werden in einem Archiv heruntergeladen}}',
  'progress.archiveOf':
    '{files, plural, one {# Datei aus {name} wird in einem Archiv heruntergeladen} other {# Dateien aus {name} werden in einem Archiv heruntergeladen}}',
  'progress.placeholder': 'Platzhalter für {name} wird angelegt',
  'progress.download': '{name} wird heruntergeladen',
  'progress.mkdir': 'Ordner {name} wird angelegt',
  'progress.moveUp': '{name} wird im Dienst verschoben',
  'progress.moveDown': '{name} wird hier verschoben',
  'progress.trash': '{name} wird in den Papierkorb verschoben',
  'progress.upload': '{name} wird hochgeladen',
  'progress.createFolder': '{name} wird im Dienst angelegt',
  'progress.rename': '{name} wird im Dienst umbenannt',
  'progress.delete': '{name} wird im Dienst gelöscht',
  'progress.bytes': '{n, plural, one {# Byte} other {# Byte}}',
  'progress.unit': '{value} {unit}',
  'progress.seconds': 'etwa {s} s',
  'progress.minutes': 'etwa {min} min',
  'progress.hours': 'etwa {h} h',
  'progress.hoursMinutes': 'etwa {h} h {min} min',
  'progress.perSecond': '{bytes}/s',
  'progress.left': 'noch {duration}',
  'progress.items':
    '{n, plural, one {{done} von {total} Element} other {{done} von {total} Elementen}}',
  'progress.withRate': '{items} — {rate}',

  'engine.conflictCopyName': 'Konfliktkopie {when} {host}',
  'engine.placeholderWritten':
    'In den Platzhalter von {name} wurde etwas geschrieben: Es bleibt als {copy} erhalten und wird hochgeladen; der Platzhalter ist wieder da.',
  'engine.placeholder.text':
    'Workspace Sync: Diese Datei wird nur online aufbewahrt; dieser Platzhalter enthält nichts von ihrem Inhalt.\nName: {name}\nGröße: {size, number} Bytes\nGeändert im Dienst: {modified}\nBeim Öffnen wird die Datei unter ihrem richtigen Namen heruntergeladen (wo die Dateimanager-Einbindung installiert ist: workspace-sync integrate --install), ebenso mit: workspace-sync files download darauf.',
  'engine.conflictCopyHost': 'dieser Computer',

  'engine.starting': 'Wird gestartet',
  'engine.paused': 'Pausiert',
  'engine.upToDate': 'Aktuell',
  'engine.sending': 'Änderungen werden an den Dienst gesendet',
  'engine.waitingWritten':
    '{n, plural, one {Warten, bis # Datei fertig geschrieben ist} other {Warten, bis # Dateien fertig geschrieben sind}}',
  'engine.walkFirst': 'Alles im Dienst wird angesehen',
  'engine.walkScheduled': 'Alles im Dienst wird geprüft (eine regelmäßige Prüfung)',
  'engine.walkCatchUp':
    '{n, plural, one {# Änderung im Dienst wird nachgeholt: Jeder Ordner wird einmal aufgelistet} other {# Änderungen im Dienst werden nachgeholt: Jeder Ordner wird einmal aufgelistet}}',
  'engine.walkChanges': 'Suche nach Änderungen im Dienst',
  'engine.applying':
    '{n, plural, one {# Änderung aus dem Dienst wird übernommen} other {# Änderungen aus dem Dienst werden übernommen}}',
  'engine.syncingItems':
    '{n, plural, one {# Element wird synchronisiert} other {# Elemente werden synchronisiert}}',
  'engine.backlogArriving':
    '{n, plural, one {# Änderung im Dienst, es kommen noch weitere: übernommen, sobald sie aufhören} other {# Änderungen im Dienst, es kommen noch weitere: übernommen, sobald sie aufhören}}',
  'engine.backlogWalk':
    '{n, plural, one {# Änderung im Dienst: Jeden Ordner einmal aufzulisten geht schneller, als jede zu lesen} other {# Änderungen im Dienst: Jeden Ordner einmal aufzulisten geht schneller, als jede zu lesen}}',
  'engine.heldLocal':
    '{n, plural, one {# Element wurde hier entfernt: Bestätigen Sie, um es auch im Dienst zu löschen} other {# Elemente wurden hier entfernt: Bestätigen Sie, um sie auch im Dienst zu löschen}}',
  'engine.heldRemote':
    '{total, plural, one {Der Dienst führt {n} von # synchronisierten Element als gelöscht: Bestätigen Sie, um sie hier in den Papierkorb zu verschieben, oder behalten Sie sie} other {Der Dienst führt {n} von # synchronisierten Elementen als gelöscht: Bestätigen Sie, um sie hier in den Papierkorb zu verschieben, oder behalten Sie sie}}',
  'engine.heldRemoteRecent':
    '{total, plural, one {Der Dienst führt {n} weitere von # synchronisierten Element als gelöscht, nachdem hier in der letzten Stunde {recent} in den Papierkorb verschoben wurden: Bestätigen Sie, um auch sie in den Papierkorb zu verschieben, oder behalten Sie sie} other {Der Dienst führt {n} weitere von # synchronisierten Elementen als gelöscht, nachdem hier in der letzten Stunde {recent} in den Papierkorb verschoben wurden: Bestätigen Sie, um auch sie in den Papierkorb zu verschieben, oder behalten Sie sie}}',
  'engine.remoteFolderTrashed':
    '{n, plural, one {{path} wurde auf dem Dienst gelöscht (# Element): auf diesem Computer in den Papierkorb verschoben, aus dem es wiederhergestellt werden kann} other {{path} wurde auf dem Dienst gelöscht (# Elemente): auf diesem Computer in den Papierkorb verschoben, aus dem es wiederhergestellt werden kann}}',
  'engine.retryOffline': 'Offline: Der Dienst ist nicht verfügbar; neuer Versuch in {seconds} s',
  'engine.retryAfter': '{problem}: neuer Versuch in {seconds} s',
  'engine.signedOut':
    'Sie sind abgemeldet: Melden Sie sich erneut an, um weiter zu synchronisieren.',
  'engine.connectionBroke': 'Die Verbindung zum Dienst ist abgebrochen ({code}).',
  'engine.diskFull':
    'Der Datenträger mit {where} ist voll: Geben Sie Platz frei; die Synchronisierung läuft von selbst weiter.',
  'engine.diskFullOnce':
    'Der Datenträger mit {where} ist voll: Geben Sie Platz frei und synchronisieren Sie erneut.',
  'engine.journalDisk': 'dem Journal der Synchronisierung',
  'engine.syncFolder': 'dem synchronisierten Ordner',
  'engine.localAccess':
    'In den synchronisierten Ordner kann nicht geschrieben werden ({code}): Prüfen Sie seine Berechtigungen.',
  'engine.attentionConflicts':
    '{n, plural, one {# Konflikt zu prüfen} other {# Konflikte zu prüfen}}',
  'engine.attentionProblems': '{n, plural, one {# Problem zu prüfen} other {# Probleme zu prüfen}}',
  'engine.attentionBoth':
    '{conflicts, plural, one {# Konflikt} other {# Konflikte}} und {problems, plural, one {# Problem} other {# Probleme}} zu prüfen',

  'tray.noPairs': 'Kein Ordner wird synchronisiert',
  'tray.pairWords': '{workspace}: {words}',
  'tray.conflicts': '{n, plural, one {# Konflikt zu prüfen} other {# Konflikte zu prüfen}}',
  'tray.offline': 'Offline: Der Dienst ist nicht verfügbar',
  'tray.syncing': 'Synchronisierung: {progress}',
  'tray.syncingPlain': 'Wird synchronisiert…',
  'tray.pausedOne': '{workspace}: pausiert',
  'tray.pausedAll': 'Alle Ordner pausiert',
  'tray.upToDate': 'Aktuell',
  'tray.openFolder': 'Ordner öffnen',
  'tray.openFailed': 'Der Ordner wurde nicht geöffnet',
  'tray.openWindow': 'Workspace Sync öffnen',
  'tray.resume': 'Synchronisierung fortsetzen',
  'tray.pause': 'Synchronisierung pausieren',
  'tray.retryNow': 'Jetzt erneut versuchen',
  'tray.quit': 'Workspace Sync beenden',
  'notice.someone': 'Jemand',
  'notice.two': '{a} und {b}',
  'notice.many': '{first} und {n, plural, one {# weitere Person} other {# weitere}}',
  'notice.changed': 'geändert',
  'notice.items': '{n, plural, one {# Element} other {# Elemente}}',
  'notice.things': '{n, plural, one {# Ereignis} other {# Ereignisse}}',
  'notice.burst': '{who}: {what} ({verb})',
  'notice.burstIn': '{who}: {what} in {workspace} ({verb})',
  'notice.burstInMany':
    '{who}: {what} in {n, plural, one {# Arbeitsbereich} other {# Arbeitsbereichen}} ({verb})',
  'notice.conflict':
    '{name} wurde hier und im Dienst geändert: Beide Versionen bleiben erhalten; wählen Sie eine in Workspace Sync.',
  'notice.conflicts': '{n, plural, one {# Konflikt zu lösen} other {# Konflikte zu lösen}}',
  'notice.signedOut': 'abgemeldet: Melden Sie sich erneut an, um weiter zu synchronisieren',
  'notice.diskFull': 'ein Datenträger ist voll: Geben Sie Platz frei',
  'notice.causes': '{what}.',
  'notice.causesIn': '{what} in {n, plural, one {# Ordner} other {# Ordnern}}.',
  'dialog.chooseFolder': 'Ordner zum Synchronisieren auswählen',
  'dialog.choose': 'Auswählen',
  'dialog.openInBrowser': 'Im Browser öffnen',
  'dialog.cancel': 'Abbrechen',
  'dialog.openAddress': 'Diese Adresse im Browser öffnen?',
  'dialog.notSignedIn': 'Es ist keine Seite eines Dienstes, bei dem Sie angemeldet sind.',
  'dialog.folderFailed':
    'Der Ordnerdialog konnte nicht angezeigt werden: Geben Sie den Ordner stattdessen ein.',
  'dialog.saveZip': 'ZIP speichern',
  'dialog.save': 'Speichern',
  'dialog.zipFiles': 'ZIP-Archive',
  'dialog.saveFailed':
    'Der Speichern-Dialog konnte nicht angezeigt werden: Versuchen Sie es erneut.',

  'cli.usage': `Aufruf: {program} <Befehl> [Optionen]

Synchronisiert einen Arbeitsbereich des Workspace Content Service mit einem lokalen Ordner, ohne die Desktop-App.

Befehle:
  login       mit E-Mail und Passwort anmelden; das Konto wird gemerkt
  logout      ein gemerktes Konto vergessen
  workspaces  die Arbeitsbereiche auflisten, die Sie synchronisieren können
  sync        einen Arbeitsbereich mit einem Ordner synchronisieren, fortlaufend oder --once
  folders     welche Ordner des Arbeitsbereichs eines Sync-Ordners hier synchronisiert werden;
              --exclude, --include
  files       Dateien bei Bedarf: synchronisierte Dateien herunterladen, freigeben, anheften,
              lösen, ihren Stand zeigen oder öffnen
  status      was die Synchronisierungen auf diesem Computer gerade tun (startet keine)
  ui          das Fenster von Workspace Sync einem Browser auf diesem Computer bereitstellen
  link        den Freigabelink einer synchronisierten Datei oder eines Ordners ausgeben (oder --copy)
  integrate   „Workspace-Sync-Link kopieren“ in den Menüs der Dateimanager hinzufügen
              (--install) oder entfernen (--uninstall) (Nautilus, Nemo, Dolphin, Thunar)

„{program} <Befehl> --help“ zeigt die Optionen eines Befehls.{sandbox}

Umgebung:
  WORKSPACE_SYNC_STATE          der Zustandsordner: Einstellungen, Journale, Protokolle, Papierkorb
                                (jetzt: {state})
  WORKSPACE_SYNC_TOKEN          ein Zugriffstoken, statt eines gemerkten Kontos verwendet
                                (oder --token-file PFAD; nie --token, das ps zeigt)
  WORKSPACE_SYNC_CLIENT_ID      die OAuth-Client-ID (Standard workspace-sync)
  WORKSPACE_SYNC_CLIENT_SECRET  das OAuth-Client-Geheimnis (Standard sandbox-secret)
  HTTPS_PROXY, HTTP_PROXY       der Proxy für https- und http-Server, http://host:port
                                (auch kleingeschrieben, zuerst gelesen; --proxy URL geht vor)
  NO_PROXY                      die Server, die ohne ihn erreicht werden: Namen (und die Namen
                                darunter), host:port, IP-Bereiche oder *
  LANG, LC_ALL, LC_MESSAGES     die Sprache dieser Zeilen (Englisch, Deutsch)

Exit-Status: 0 erledigt, 1 fehlgeschlagen, 2 falscher Aufruf, 130 unterbrochen (status: 3, wenn keine Synchronisierung läuft)`,
  'cli.usageSandbox': ` „workspaces“, „sync“ und „ui“ nehmen
--sandbox statt --server für eine eingebettete Demo-Sandbox (npm run demo); nie ohne sie.`,
  'cli.noCommand': 'kein Befehl angegeben',
  'cli.unknownOption': 'unbekannte Option {option}',
  'cli.unknownCommand': 'unbekannter Befehl „{name}“',
  'cli.seeHelp': '„{command} --help“ zeigt den Aufruf.',
  'cli.interrupted': 'unterbrochen',
  'cli.summary': 'Synchronisierung abgeschlossen: {parts}.',
  'cli.foldersCreated': '{n, plural, one {# Ordner} other {# Ordner}} angelegt',
  'cli.filesDownloaded': '{n, plural, one {# Datei} other {# Dateien}} heruntergeladen ({bytes})',
  'cli.moved': '{n, number} verschoben',
  'cli.trashed': '{n, number} in den Papierkorb verschoben',
  'cli.freed':
    '{n, plural, one {# länger nicht geöffnete Datei} other {# länger nicht geöffnete Dateien}} freigegeben (der Datenträger ist fast voll)',
  'cli.sent':
    'an den Dienst gesendet: {folders, plural, one {# Ordner} other {# Ordner}} angelegt, {files, plural, one {# Datei} other {# Dateien}} hochgeladen ({bytes}), {moved, number} verschoben, {deleted, number} gelöscht',
  'cli.conflicts': '{n, plural, one {# Konflikt} other {# Konflikte}}',
  'cli.problems': '{n, plural, one {# Problem} other {# Probleme}}',
  'cli.requests': '{n, plural, one {# Anfrage} other {# Anfragen}}',
  'cli.progressItems': '{done}/{total} Elemente',
  'cli.bytesOf': '{done} von {total}',
  'cli.sandbox':
    'Eingebettete Sandbox unter {url} (Demo-Arbeitsbereich {id}, angemeldet als {email})',
  'cli.problem': 'Problem: {path}: {message}',
  'cli.unknownPath': '(unbekannter Pfad)',
  'cli.conflict': 'Konflikt: {path}: {message}',
  'cli.theFolder': '(der synchronisierte Ordner)',
  'cli.note': 'Hinweis: {message}',
  'cli.stopped': 'Beendet',

  'cli.ago.now': 'gerade eben',
  'cli.ago.seconds': 'vor {n} s',
  'cli.ago.minutes': 'vor {n} min',
  'cli.ago.hours': 'vor {n} h',
  'cli.ago.days': '{n, plural, one {vor # Tag} other {vor # Tagen}}',
  'cli.status.head': '{dir} ⇄ Arbeitsbereich {id} auf {server}',
  'cli.status.headAs': '{dir} ⇄ Arbeitsbereich {id} auf {server} als {user}',
  'cli.status.notSynced': 'noch nicht synchronisiert',
  'cli.status.lastSync': 'zuletzt synchronisiert {ago}',
  'cli.status.lastSuccess': 'zuletzt erfolgreich synchronisiert {ago}',
  'cli.status.pid': 'PID {pid}, läuft seit {since}',
  'cli.status.notRunning':
    'läuft nicht: ohne Abschluss beendet (PID {pid}); zuletzt gesehen {ago}, „{message}“',
  'cli.status.error': 'Fehler: {message}',
  'cli.status.problems': '{n, plural, one {# Problem} other {# Probleme}}:',
  'cli.status.theFolder': '(der Ordner)',
  'cli.status.more': '… und {n, number} weitere',
  'cli.status.conflicts':
    '{n, plural, one {# Konflikt} other {# Konflikte}} kürzlich gelöst (siehe das Protokoll)',
  'cli.status.none': 'Keine Synchronisierung läuft (Zustandsordner {dir}).',

  'engine.noMoves':
    'Dieser Server kann nichts verschieben: Ein verschobenes Element wird an seinen neuen Ort kopiert und am alten gelöscht, sobald alles dort ist.',
  'engine.notAllCopied':
    'Nicht alles konnte kopiert werden: Der alte Ort im Dienst bleibt erhalten.',
  'engine.movedChangedFile':
    'Es wurde im Dienst geändert, während es hier verschoben wurde: Die neue Version bleibt an ihrem alten Ort.',
  'engine.movedChangedFolder':
    'Es wurde im Dienst geändert, während es hier verschoben wurde: Was dort geändert wurde, bleibt an seinem alten Ort.',
  'engine.foldersMerged':
    'Ein Ordner gleichen Namens wurde auch im Dienst angelegt: Beide wurden zusammengeführt.',
  'engine.movedDeleted':
    'Es wurde im Dienst gelöscht, während es hier verschoben wurde: Es wird erneut hochgeladen.',
  'engine.moveRefused':
    'Ihre Rolle erlaubt nicht, es im Dienst zu verschieben oder umzubenennen: Es wird zurückgestellt (es war {path}).',
  'engine.nameTaken':
    'Der Dienst hat dort bereits ein Element namens {from} (Namen werden ohne Rücksicht auf Groß- und Kleinschreibung oder Akzente verglichen): Es wurde in {name} umbenannt.',
  'engine.deleteRefused':
    'Ihre Rolle erlaubt nicht, es im Dienst zu löschen: Es wird zurückgestellt.',
  'engine.nameTakenThere':
    'Der Name war auch im Dienst vergeben: Beide bleiben erhalten; Ihres heißt jetzt {aside}.',
  'engine.deletedHereChangedThere':
    'Hier gelöscht, während der Dienst darin etwas hinzufügte oder änderte: Es ist mit dieser Änderung zurück.',
  'engine.movedThereChangedHere':
    'Im Dienst nach {name} verschoben oder umbenannt, während es hier geändert wurde: Die Änderung von hier gilt.',
  'engine.deletedThereChangedHere':
    'Im Dienst gelöscht, aber hier geändert: Ihre Version bleibt erhalten und wird erneut hochgeladen.',
  'engine.folderDeletedThere':
    'Im Dienst gelöscht, während hier darin Dateien hinzugefügt oder geändert wurden: Diese bleiben erhalten und werden erneut hochgeladen.',
  'engine.bothChanged':
    'Hier und im Dienst geändert: Beide bleiben erhalten; die Version des Dienstes ist {theirs}, Ihre ist {yours}.',
  'engine.noNewVersion':
    'Ihre Rolle in diesem Arbeitsbereich erlaubt nicht, seine neue Version herunterzuladen: Die Version hier bleibt erhalten.',
  'engine.noDownload': 'Ihre Rolle in diesem Arbeitsbereich erlaubt nicht, es herunterzuladen.',
  'engine.placeholderName':
    'Eine hier nur online verfügbare Datei hat diesen Namen (ihr Platzhalter liegt daneben, mit der Endung {name}): Benennen Sie diesen Ordner um, um ihn zu synchronisieren.',
  'engine.sameName':
    'Für den Dienst ist das derselbe Name wie {other} (sie unterscheiden sich nur in Groß- und Kleinschreibung oder Akzenten): Benennen Sie eines um, um es zu synchronisieren.',
  'engine.changeRefused':
    'Ihre Rolle in diesem Arbeitsbereich erlaubt diese Änderung nicht: Sie bleibt nur hier.',
  'engine.serviceRefused': 'Der Dienst hat es abgelehnt ({reason}): Es bleibt nur hier.',

  'service.signInRefused': 'Der Dienst hat die Anmeldung nicht akzeptiert.',
  'service.signInRefusedWhy': 'Der Dienst hat die Anmeldung nicht akzeptiert ({detail}).',
  'service.forbidden': 'Nicht erlaubt: {reason}.',
  'service.forbiddenRole': 'Nicht erlaubt: Ihre Rolle erlaubt dies nicht.',
  'service.notFound':
    'Nicht gefunden ({endpoint}): Es wurde gelöscht, oder Sie haben keinen Zugriff mehr.',
  'service.validation': 'Der Dienst hat die Anfrage abgelehnt: {errors}.',
  'service.noReason': 'ohne Angabe eines Grundes',
  'service.rateLimited':
    'Der Dienst ist ausgelastet (zu viele Anfragen): Es wird in Kürze erneut versucht.',
  'service.server':
    'Beim Dienst ist ein Fehler aufgetreten (HTTP {status}); es wird später erneut versucht.',
  'service.network': 'Der Dienst ist nicht erreichbar ({code}): Prüfen Sie die Verbindung.',
  'service.outcomeUnknown':
    'Die Verbindung brach ab, bevor der Dienst antwortete ({code}); ob die Änderung ausgeführt wurde, ist unbekannt.',
  'service.protocol': 'Unerwartete Antwort von {endpoint}: {detail}.',
  'error.nameTooLong':
    'Ein Name in {path} ist für diesen Computer zu lang (höchstens 255 Byte je Name): Wählen Sie einen kürzeren Ordner oder Namen.',
  'error.pathTooLong':
    'Der Pfad {path} ist für diesen Computer zu lang: Wählen Sie einen Ordner weiter oben oder kürzere Namen.',
  'service.redirect':
    'Der Server antwortete mit einer Weiterleitung nach {to}; prüfen Sie die Serveradresse (es muss die API des Dienstes sein, etwa https://sync.example.com/api/v1).',
  'oauth.pageDoneTitle': 'Zurück zu Workspace Sync',
  'oauth.pageDone':
    'Der Dienst hat Ihre Anmeldung an Workspace Sync zurückgegeben. Sie können diesen Tab schließen: Das Fenster von Workspace Sync zeigt, ob die Anmeldung gelungen ist.',
  'oauth.pageFailedTitle': 'Anmeldung nicht abgeschlossen',
  'oauth.pageFailed': 'Kehren Sie zu Workspace Sync zurück und versuchen Sie es erneut.',
  'service.notHttp':
    'Der Server unter {server} antwortete nicht mit HTTP: Prüfen Sie die Serveradresse und ihren Port.',
  'service.notHttpBody':
    'Die Antwort des Servers ist kein gültiges HTTP: Prüfen Sie die Serveradresse; stimmt sie, liegt der Fehler beim Server oder einem Proxy auf dem Weg.',
  'service.notTls':
    'Der Server unter {server} spricht an diesem Port kein HTTPS: Prüfen Sie die Serveradresse (http:// oder https://) und ihren Port.',
  'service.certificate':
    'Dem Zertifikat von {server} vertraut dieser Computer nicht ({code}): Prüfen Sie die Serveradresse; stimmt sie, bitten Sie den Administrator um ein Zertifikat, dem dieses System vertraut.',
  'service.tls':
    'Eine sichere Verbindung zu {server} kam nicht zustande ({code}): Prüfen Sie die Serveradresse und ihren Port.',
  'service.insecure':
    'Anmeldedaten werden nicht über unverschlüsseltes http an einen anderen Rechner gesendet: Verwenden Sie eine https-Server-URL.',
  'service.proxyUnusable': '{source} ist kein verwendbarer Proxy: {problem}.',
  'service.proxySetting': 'Die Proxy-Einstellung',
  'service.proxyProblem':
    '{kind, select, no_scheme {geben Sie den Proxy als URL an, die mit http:// beginnt, etwa {example}} scheme {nur http://- (oder https://-)Proxys sind möglich, nicht {scheme}://: geben Sie ihn etwa als {example} an} not_url {die Proxy-URL ist ungültig (prüfen Sie Host und Port): geben Sie sie etwa als {example} an} no_host {die Proxy-URL nennt keinen Host: geben Sie sie etwa als {example} an} path {eine Proxy-URL besteht nur aus Host und Port, ohne Pfad: geben Sie sie etwa als {example} an} other {die Proxy-URL hat ein Passwort, aber keinen Benutzernamen: schreiben Sie benutzer:passwort@ vor den Host}}',
  'service.proxyGateway':
    'HTTP {status} über den Proxy {proxy}: Er konnte {host} nicht erreichen, oder der Dienst ist ausgefallen; es wird später erneut versucht.',
  'service.proxyRefused':
    'Der Proxy {proxy} hat die Verbindung zu {host} abgelehnt (HTTP {status}): {why}.',
  'service.theProxy': 'der Proxy',
  'service.signInTooLong': 'die Anmeldung hat zu lange gedauert',
  'service.signInMismatch': 'die Antwort der Anmeldung passte nicht zu dieser Anfrage',
  'service.deadline':
    'Der Dienst hat die Antwort auf {endpoint} nicht innerhalb von {seconds} s beendet.',
  'service.proxyWhy':
    '{status, select, 403 {seine Regeln erlauben es nicht} 407 {er verlangt Benutzer und Passwort: schreiben Sie benutzer:passwort@ vor seinen Host, oder prüfen Sie sie} 502 {er konnte den Dienst nicht erreichen} 503 {er ist nicht verfügbar} 504 {er konnte den Dienst nicht rechtzeitig erreichen} other {er hat abgelehnt}}',

  'engine.heldLocalStory':
    '{count} von {total} synchronisierten Elementen wurden aus dem synchronisierten Ordner entfernt; im Dienst wurde nichts gelöscht. Wenn Sie das wollten, starten Sie erneut mit --confirm-deletes (oder bestätigen Sie in der App); wenn nicht, legen Sie die Dateien zurück (oder prüfen Sie, ob der Ordner eingehängt ist).',
  'engine.heldRemoteStory':
    'Der Dienst führt {n, number} von {total, plural, one {# synchronisierten Element} other {# synchronisierten Elementen}} als gelöscht; hier wurde nichts in den Papierkorb verschoben. Wenn das stimmt, starten Sie erneut mit --confirm-remote-deletes (sie kommen in den Papierkorb, nicht weg); um sie zu behalten und erneut hochzuladen, starten Sie mit --keep-local-copies. Prüfen Sie zuerst, ob Server und Arbeitsbereich die richtigen sind.',
  'engine.heldRemoteRecentStory':
    'Der Dienst führt {n, number} weitere von {total, plural, one {# synchronisierten Element} other {# synchronisierten Elementen}} als gelöscht, nachdem hier in der letzten Stunde {recent, number} dort gelöschte in den Papierkorb verschoben wurden; nichts weiteres wurde verschoben. Wenn das stimmt, starten Sie erneut mit --confirm-remote-deletes (sie kommen in den Papierkorb, nicht weg); um sie zu behalten und erneut hochzuladen, starten Sie mit --keep-local-copies. Prüfen Sie zuerst, ob Server und Arbeitsbereich die richtigen sind.',
  'engine.rootMissing':
    'Der synchronisierte Ordner {root} fehlt. Wenn Sie ihn verschoben oder umbenannt haben, stellen Sie ihn zurück; um in einem neuen Ordner neu zu beginnen, wählen Sie stattdessen diesen Ordner. Im Dienst wurde nichts gelöscht.',
  'engine.rootChanged':
    'Der synchronisierte Ordner {root} wurde durch einen anderen Ordner ersetzt. Die Synchronisierung wurde angehalten, damit im Dienst nichts gelöscht wird; stellen Sie den ursprünglichen Ordner zurück, oder synchronisieren Sie in einen neuen Ordner.',
  'engine.workspaceGone':
    'Der Arbeitsbereich {id} wurde gelöscht oder wird nicht mehr mit Ihnen geteilt: Die Synchronisierung ist beendet, die Dateien hier bleiben, wie sie sind.',
  'engine.stateInFolder':
    'Der Zustandsordner und der synchronisierte Ordner dürfen einander nicht enthalten: Wählen Sie ein anderes --state oder --dir.',
  'engine.folder.system':
    '{folder} liegt in einem Systemordner, der keine Dateien von Ihnen enthält: Wählen Sie einen Ordner in Ihrem persönlichen Ordner oder auf einem Datenträger für Daten.',
  'engine.folder.systemVia':
    '{folder} liegt in einem Systemordner (er führt zu {real}), der keine Dateien von Ihnen enthält: Wählen Sie einen Ordner in Ihrem persönlichen Ordner oder auf einem Datenträger für Daten.',
  'engine.folder.root':
    '{folder} ist die oberste Ebene eines Datenträgers: Wählen Sie einen Ordner darin, in Ihrem persönlichen Ordner oder auf einem Datenträger für Daten.',
  'engine.folder.home':
    '{folder} ist Ihr persönlicher Ordner selbst, der alles von Ihnen enthält: Wählen Sie einen Ordner darin.',
  'engine.folder.appData':
    '{folder} enthält die eigenen Daten dieser App ({state}) oder liegt darin: Wählen Sie einen anderen Ordner.',
  'engine.folder.denied':
    '{folder} kann nicht verwendet werden: Zugriff verweigert. Wählen Sie einen Ordner, in den Sie schreiben dürfen.',
  'engine.folder.full':
    'Der Datenträger mit {folder} ist voll: Geben Sie Platz frei, oder wählen Sie einen Ordner auf einem anderen Datenträger.',
  'engine.folder.readOnly':
    '{folder} liegt auf einem schreibgeschützten Datenträger: Wählen Sie einen Ordner, in den Sie schreiben dürfen.',
  'engine.folder.tooLong':
    'Der Pfad {folder} ist für diesen Computer zu lang: Wählen Sie einen kürzeren.',
  'engine.folder.loop':
    '{folder} führt durch eine Schleife symbolischer Links: Wählen Sie einen anderen Ordner.',
  'engine.folder.isFile':
    '{folder} ist eine Datei, kein Ordner: Wählen Sie einen Ordner für die Synchronisierung.',
  'engine.folder.isFileOnPath': '{folder} ist eine Datei, kein Ordner: Wählen Sie einen Ordner.',
  'engine.folder.unusable':
    '{folder} kann nicht als synchronisierter Ordner verwendet werden: Wählen Sie einen anderen Ordner.',
  'engine.folder.noAnswer':
    '{folder} hat nicht innerhalb von {seconds} s geantwortet (ein Datenträger oder eine Netzwerkfreigabe, die nicht mehr reagiert?): Wählen Sie einen anderen Ordner.',
  'engine.badEncoding':
    '{folder, select, yes {Dieser Name ist kein gültiges UTF-8 (die ungültigen Bytes erscheinen als \uFFFD): Nichts darin wird synchronisiert; benennen Sie ihn um, um ihn zu synchronisieren.} other {Dieser Name ist kein gültiges UTF-8 (die ungültigen Bytes erscheinen als \uFFFD): Er wird nicht synchronisiert; benennen Sie ihn um, um ihn zu synchronisieren.}}',
  'engine.badName':
    'Dieser Name kann nicht synchronisiert werden ({kind, select, separator {er enthält einen Backslash} control {er enthält ein Steuerzeichen} too_long {er ist zu lang} empty {er ist leer} dot {„.“ ist kein Name} dot_dot {„..“ ist kein Name} nul {er enthält ein Nullzeichen} drive_or_stream {er enthält einen Doppelpunkt} other {{problem}}}): Benennen Sie ihn um, um ihn zu synchronisieren.',
  'engine.unreadable':
    'Diese Datei kann nicht gelesen werden ({why, select, denied {Zugriff verweigert} locked {ein anderes Programm hat sie gesperrt} not_plain {sie ist keine gewöhnliche Datei mehr} io {der Datenträger meldete einen Lesefehler} other {{why}}}): Sie bleibt hier, wird nicht hochgeladen und erneut versucht, wenn sie sich ändert, und bei jeder vollständigen Prüfung.',
  'engine.keptUnchosen':
    'Dieser Ordner ist für diesen Computer nicht ausgewählt; seine Kopie hier enthielt nicht gesendete Änderungen, daher wurde sie behalten und wird nicht synchronisiert. Verschieben Sie, was Sie brauchen, an einen anderen Ort, oder wählen Sie den Ordner wieder aus.',
  'engine.unchosenTaken':
    'Ein Ordner dieses Namens im Dienst ist für diesen Computer nicht ausgewählt: Dieser hier bleibt erhalten und wird nicht synchronisiert. Benennen Sie ihn um, um ihn als neuen Ordner zu synchronisieren, oder wählen Sie jenen Ordner wieder aus.',
  'engine.swapped':
    '{path} wurde während der Synchronisierung verändert (ein Ordner auf seinem Pfad wurde verschoben oder ersetzt, vielleicht durch einen Link an einen anderen Ort): Es wird später erneut versucht.',
  'engine.onDemand.notSynced':
    '{n, plural, one {Keine synchronisierte Datei und kein synchronisierter Ordner: {path}. Zuerst synchronisieren (workspace-sync sync --once).} other {# Pfade sind nicht synchronisiert, darunter {path}. Zuerst synchronisieren (workspace-sync sync --once).}}',
  'engine.onDemand.freeRefused':
    '{n, plural, one {Nicht freigegeben: {path} hat Änderungen, die noch nicht im Dienst sind. Erst synchronisieren lassen, dann freigeben.} other {# Dateien nicht freigegeben, darunter {path}: Sie haben Änderungen, die noch nicht im Dienst sind. Erst synchronisieren lassen, dann freigeben.}}',
  'engine.onDemand.freeInTheWay':
    'Nicht freigegeben: Eine Datei namens {placeholder} steht dem Platzhalter von {path} im Weg. Sie umbenennen oder verschieben, dann die Datei freigeben.',
  'engine.pairBusy':
    'Ein anderer Workspace-Sync-Prozess synchronisiert {dir} bereits (die App oder ein sync-Befehl): Zwei würden sich um dieselben Dateien streiten. Beenden Sie zuerst den anderen, oder überlassen Sie ihm den Ordner.',
  'engine.door.paused':
    'So weit wie möglich erledigt: Die Synchronisierung dieses Ordners ist pausiert, der Rest geschieht, sobald Sie sie fortsetzen.',
  'engine.door.slow': 'Noch dabei: Das dauert länger und läuft im Hintergrund weiter.',
  'engine.door.failed':
    'Angefordert, aber der Ordner konnte gerade nicht synchronisieren ({why}): Es wird erneut versucht.',
  'engine.door.notHere':
    '{path} konnte noch nicht heruntergeladen werden: Die Probleme des Ordners sagen, warum (workspace-sync status).',
  'engine.door.unsafe':
    '{dir} ist kein privater Ordner von Ihnen (ein anderer Benutzer besitzt ihn oder darf ihn betreten), daher kann dieser Ordner nicht sicher synchronisiert werden: Entfernen Sie ihn, oder setzen Sie XDG_RUNTIME_DIR auf Ihren eigenen Laufzeitordner.',
  'engine.door.broken':
    'Workspace Sync konnte seine lokale Verbindung {door} nicht einrichten ({why}): Prüfen Sie, ob der Ordner beschreibbar ist, und versuchen Sie es erneut.',
  'engine.onDemand.gone':
    '{path} ist nicht mehr im Dienst (dort inzwischen gelöscht oder verschoben): Es gibt nichts herunterzuladen.',
  'engine.conflictSettled': 'Dieser Konflikt ist bereits gelöst.',
  'engine.choiceGone': '{name} ist nicht mehr da: Es gibt nichts zu lösen.',
  'engine.choiceChanged':
    '{name} wurde seit dem Konflikt geändert: Sehen Sie es sich erneut an und wählen Sie dann.',
  'engine.keepMineFiles':
    '„Meine behalten“ gilt für Dateien: Verschieben Sie bei einem Ordner von Hand hinein, was Sie behalten möchten.',
  'engine.problemOver': 'Dieses Problem ist bereits erledigt.',
  'engine.swappedChoice':
    '{path} wurde verschoben oder ersetzt, während Ihre Wahl ausgeführt wurde (ein Ordner auf seinem Pfad, vielleicht durch einen Link an einen anderen Ort): Außerhalb des synchronisierten Ordners wurde nichts berührt. Sehen Sie es sich erneut an und wählen Sie dann.',
  'engine.theSyncFolder': 'Der synchronisierte Ordner',
  'engine.watchLimit':
    'Das System hat bei {where} keine Dateiüberwachungen (inotify) mehr; dort wird stattdessen regelmäßig nachgesehen, was langsamer ist. Erhöhen Sie die Grenze: sudo sysctl fs.inotify.max_user_watches=524288 (und tragen Sie sie in /etc/sysctl.conf ein).',
  'engine.watchProblem':
    'Beim Überwachen des synchronisierten Ordners auf Änderungen trat ein Problem auf: {error}',
  'engine.fs.denied':
    'Dieser Computer erlaubt nicht, {path} zu ändern (Zugriff verweigert): Prüfen Sie die Berechtigungen.',
  'engine.fs.full': 'Der Datenträger mit {path} ist voll: Geben Sie Platz frei.',
  'engine.fs.readOnly':
    '{path} liegt auf einem schreibgeschützten Datenträger: Es kann nicht geändert werden.',
  'engine.fs.tooLong': 'Der Name oder Pfad von {path} ist für diesen Computer zu lang.',
  'engine.fs.busy':
    '{path} wird von einem anderen Programm verwendet: Es wird später erneut versucht.',
  'engine.fs.notFolder': 'Bei {path} stehen sich eine Datei und ein Ordner im Weg.',
  'engine.fs.exists': 'Bei {path} ist bereits etwas vorhanden.',
  'engine.fs.loop': '{path} führt durch eine Schleife symbolischer Links.',
  'engine.fs.tooMany':
    'Auf diesem Computer sind zu viele Dateien geöffnet (bei {path}): Schließen Sie einige Programme.',
  'engine.fs.missing': '{path} ist nicht mehr vorhanden.',
  'engine.fs.io': 'Der Datenträger meldete einen Fehler bei {path}.',
  'engine.fs.other': 'Dieser Computer hat abgelehnt: {code} ({path}).',
  'engine.fs.noLook':
    '{path} kann nicht angesehen werden (Zugriff verweigert): Prüfen Sie die Berechtigungen des Ordners, in dem es liegt.',
  'engine.fs.subtree':
    '{problem} Nichts darin wird synchronisiert; beim nächsten vollständigen Durchgang wird es erneut versucht.',
  'engine.keptUnplaced':
    '{path} enthält Objekte, die nicht auf diesem Computer sein können (ein hier zu langer Pfad, ein Name oder Ort, den er ablehnt, oder ein nicht für ihn gewählter Ordner); es wurde im Dienst nicht gelöscht und ist wieder da. Löschen Sie es im Dienst, oder verschieben Sie es weiter nach oben, damit alles passt.',
  'engine.leadsOutside':
    'Über {dir} wird nicht geschrieben: Es führt aus dem synchronisierten Ordner hinaus',
  'engine.tooManyBytes': 'mehr als die angekündigten {size} Bytes erhalten',
  'engine.fewerBytes': '{written} der angekündigten {size} Bytes erhalten',
  'engine.cutOff':
    'Der Download brach nach {written} der angekündigten {size} Bytes ab: Er wird später (ab dort) erneut versucht',
  'engine.deadlineCut':
    '{deadline} ({written} von {size} Bytes kamen an): Es wird später (ab dort) erneut versucht',
  'cli.tokensInFile':
    'Ihre Tokens liegen in {file}, als Klartext, den nur Ihr Benutzer lesen kann (nicht in einem Schlüsselbund, wie --store file verlangt). „logout“ löscht sie.',
  'cli.signedIn': 'Angemeldet als {email} bei {server}',
  'cli.signedOut': '{email} bei {server} abgemeldet',
  'cli.noWorkspaces': 'Keine Arbeitsbereiche auf {server}.',
  'cli.column.id': 'ID',
  'cli.column.name': 'NAME',
  'cli.column.role': 'ROLLE',
  'cli.copied': 'Der Link von {name} wurde in die Zwischenablage kopiert ({via}).',

  'cli.help.login': `Aufruf: workspace-sync login --server URL --email EMAIL [Optionen]

Meldet sich mit E-Mail und Passwort an (der OAuth-Password-Grant) und merkt sich die Tokens des
Kontos im Schlüsselbund des Systems, sodass „workspaces“ und „sync“ danach nur --server brauchen.
Das Passwort wird ohne Echo abgefragt oder mit --password-stdin aus der ersten Zeile der
Standardeingabe gelesen; es wird nie gespeichert.

  --server URL            die Basis-URL des Dienstes, z. B. https://files.example.com/api/v1
  --email EMAIL           die E-Mail des Kontos
  --password-stdin        das Passwort aus der Standardeingabe lesen (erste Zeile)
  --store keychain|file   wo die Tokens liegen: im Schlüsselbund des Systems (Standard) oder, auf
                          einem Rechner ohne einen (ein Server ohne Oberfläche), in einer Datei,
                          die nur Sie lesen können, als Klartext im Zustandsordner; „sync“
                          erneuert sie dort, solange der Dienst es erlaubt
  --client-id ID          OAuth-Client-ID (Standard: $WORKSPACE_SYNC_CLIENT_ID oder workspace-sync)
  --client-secret SECRET  OAuth-Client-Geheimnis (Standard: $WORKSPACE_SYNC_CLIENT_SECRET oder sandbox-secret)
{proxy}
  --state DIR             Zustandsordner (Standard: $WORKSPACE_SYNC_STATE oder der des Systems)
  --verbose               das Protokoll auch auf stderr; Stacktraces bei Fehlern
  -h, --help              dieser Text

Beispiele:
  workspace-sync login --server https://files.example.com --email ann@example.com
  workspace-sync login --server https://files.example.com --email ann@example.com --store file`,
  'cli.help.logout': `Aufruf: workspace-sync logout --server URL [--email EMAIL] [Optionen]

Vergisst ein gemerktes Konto (seine Tokens werden aus dem Schlüsselbund gelöscht oder aus der
Datei von „login --store file“).

  --server URL   die Basis-URL des Dienstes, bei dem das Konto angemeldet wurde
  --email EMAIL  das Konto (nur nötig, wenn für den Server mehrere gemerkt sind)
  --state DIR    Zustandsordner (Standard: $WORKSPACE_SYNC_STATE oder der des Systems)
  --verbose      das Protokoll auch auf stderr; Stacktraces bei Fehlern
  -h, --help     dieser Text`,
  'cli.help.workspaces': `Aufruf: workspace-sync workspaces {demo, select, yes {--server URL | --sandbox} other {--server URL}} [Optionen]

Listet die Arbeitsbereiche auf, die Sie synchronisieren können: ID, Name und Ihre Rolle in jedem.

  --server URL        die Basis-URL des Dienstes, z. B. https://files.example.com/api/v1
  --token-file PATH   ein Zugriffstoken aus PATH lesen (- für die Standardeingabe); Standard:
                      $WORKSPACE_SYNC_TOKEN, sonst das von „login“ gemerkte Konto
  --token TOKEN       dasselbe, von der Befehlszeile (für jeden Benutzer in ps sichtbar: vermeiden)
  --email EMAIL       welches gemerkte Konto, wenn es für den Server mehrere gibt
  --json              ein JSON-Objekt pro Zeile: {json}{demo, select, yes {
  --sandbox           eine eingebettete Demo-Sandbox statt eines Dienstes verwenden} other {}}
{proxy}
  --state DIR         Zustandsordner (Standard: $WORKSPACE_SYNC_STATE oder der des Systems)
  --verbose           das Protokoll auch auf stderr; Stacktraces bei Fehlern
  -h, --help          dieser Text

Beispiele:
  workspace-sync workspaces --server https://files.example.com/api/v1
  workspace-sync workspaces --server https://files.example.com/api/v1 --token-file ~/.ws-token --json`,
  'cli.help.sync': `Aufruf: workspace-sync sync --server URL --workspace ID --dir PATH [Optionen]{demo, select, yes {
        workspace-sync sync --sandbox --dir PATH [Optionen]} other {}}

Synchronisiert einen Arbeitsbereich mit einem lokalen Ordner: fortlaufend bis Strg-C (SIGINT) oder
SIGTERM, oder ein Durchgang mit --once.{demo, select, yes { Mit --sandbox (nie ohne) startet es eine eingebettete
Demo-Sandbox, meldet sich als ihr Eigentümer an und synchronisiert ihren Demo-Arbeitsbereich.} other {}}

  --server URL       die Basis-URL des Dienstes, z. B. https://files.example.com/api/v1
  --token-file PATH  ein Zugriffstoken aus PATH lesen (- für die Standardeingabe), nicht erneuert;
                     Standard: $WORKSPACE_SYNC_TOKEN, sonst das von „login“ gemerkte Konto,
                     nach Bedarf erneuert
  --token TOKEN      dasselbe, von der Befehlszeile (für jeden Benutzer in ps sichtbar: vermeiden)
  --email EMAIL      welches gemerkte Konto, wenn es für den Server mehrere gibt
  --workspace ID     der zu synchronisierende Arbeitsbereich (siehe „workspace-sync workspaces“)
  --dir PATH         der lokale Ordner (angelegt, wenn er fehlt)
  --once             ein Durchgang, dann eine Zusammenfassung; Exit 0, wenn er vollständig war
  --merge            eine erste Synchronisierung eines Ordners mit Dateien lädt sie in den
                     Arbeitsbereich hoch (ohne die Option wird er abgelehnt, mit ihrer Anzahl)
  --exclude PATH     diesen Ordner des Arbeitsbereichs (z. B. Reports/2023) samt allem darunter
                     auslassen: nichts wird heruntergeladen, nichts hineingeladen; wiederholbar
                     und gemerkt (ändern später mit „workspace-sync folders“)
  --on-demand online|full
                     ob neue Dateien als nur online aufbewahrte Platzhalter ankommen
                     (NAME.wsync, siehe „workspace-sync files“) oder ganz (Standard); gemerkt
  --free-unused-days N|off
                     wenn der Datenträger fast voll ist (unter 5 % frei oder 2 GiB, je nachdem,
                     was kleiner ist), die seit N Tagen nicht geöffneten Dateien freigeben (die
                     ältesten zuerst; nie eine angeheftete oder eine mit nicht gesendeten
                     Änderungen); off (Standard) nie; gemerkt
  --confirm-deletes  diesem Lauf erlauben, im Dienst zu löschen, auch wenn ein Durchgang mehr
                     löschen würde, als das Sicherheitsnetz zulässt (die Hälfte der
                     synchronisierten Elemente oder über 1.000)
  --confirm-remote-deletes
                     diesem Lauf erlauben, in den Papierkorb zu verschieben (nie zu löschen), was
                     der Dienst als gelöscht führt, auch über dieses Sicherheitsnetz hinaus
  --keep-local-copies
                     wenn der Dienst über dieses Sicherheitsnetz hinaus Elemente als gelöscht
                     führt, diese Dateien hier behalten und erneut hochladen
  --poll SECONDS     wie oft im fortlaufenden Betrieb nach Änderungen im Dienst gesucht wird
                     (Standard 5)
  --limit-up KBPS    alle Uploads zusammen höchstens KBPS KB/s (1 KB = 1.000 Byte); 0 (der
                     Standard) für keine Grenze
  --limit-down KBPS  alle Downloads zusammen höchstens KBPS KB/s; 0 (der Standard) für keine Grenze
  --json             ein JSON-Objekt pro Zeile auf stdout: status, progress, problem, conflict,
                     notice, error, summary
{proxy}{demo, select, yes {
  --sandbox          eine eingebettete Demo-Sandbox statt eines Dienstes verwenden} other {}}
  --state DIR        Zustandsordner: Einstellungen, Journale, Protokolle, Papierkorb
                     (Standard: $WORKSPACE_SYNC_STATE oder der des Systems)
  --verbose          das Protokoll auch auf stderr; Stacktraces bei Fehlern
  -h, --help         dieser Text

Beispiele:{demo, select, yes {
  workspace-sync sync --sandbox --dir ./demo-workspace} other {}}
  workspace-sync sync --server https://files.example.com/api/v1 --workspace 42 --dir ~/Q3 --once
  workspace-sync sync --server https://files.example.com/api/v1 --workspace 42 --dir ~/Q3 --json
  workspace-sync sync --server https://files.example.com/api/v1 --workspace 42 --dir ~/Q3 \\
    --limit-up 250 --limit-down 1000`,
  'cli.help.status': `Aufruf: {program} status [--json] [Optionen]

Sagt, was die Synchronisierungen auf diesem Computer (in diesem Zustandsordner) gerade tun: jedes
Paar (Ordner, Arbeitsbereich, Server, Konto), sein Zustand, seine letzte Synchronisierung und
seine Probleme. Es startet keine Synchronisierung und stellt keine Anfrage: Es liest, was jedes
laufende „sync“ im Zustandsordner ablegt.

  --json         ein JSON-Objekt pro Paar, je eine Zeile (running: false für eine
                 Synchronisierung, die ohne Abschluss endete, z. B. abgebrochen)
  --state DIR    Zustandsordner (Standard: $WORKSPACE_SYNC_STATE oder der des Systems)
  --verbose      das Protokoll auch auf stderr; Stacktraces bei Fehlern
  -h, --help     dieser Text

Exit-Status: 0 mindestens eine Synchronisierung läuft, 3 keine, 1 der Zustand war nicht lesbar`,
  'cli.help.ui': `Aufruf: workspace-sync ui {demo, select, yes {--sandbox | --server URL} other {--server URL}} [--port N] [Optionen]

Stellt das Fenster von Workspace Sync einem Browser auf diesem Computer bereit (nur 127.0.0.1)
und gibt eine JSON-Zeile {json} aus: Öffnen Sie diese URL. Das Geheimnis
darin ändert sich bei jedem Lauf; ohne es kann das Fenster sich nicht verbinden. Läuft bis Strg-C
(SIGINT) oder SIGTERM. Ohne Schlüsselbund fragt das Fenster, wo ein Konto bleiben soll: nur für
diese Sitzung oder in accounts.plain.json im Zustandsordner (Klartext, Modus 0600, wie
„login --store file“).
{demo, select, yes {
Mit --sandbox startet es eine eingebettete Demo-Sandbox, meldet ihren Eigentümer an
(ann@example.com, Passwort ann-sandbox-pass), synchronisiert den Demo-Arbeitsbereich in einen
frischen temporären Ordner und bietet „Demo ausprobieren“ an. Das Fenster baut „npm run build“
(out/renderer).
} other {}}
  --server URL      aus dem Fenster bei diesem Dienst anmelden{demo, select, yes {
  --sandbox         eine eingebettete Demo-Sandbox statt eines Dienstes verwenden} other {}}
  --port N          der Port, auf dem gelauscht wird (Standard: ein beliebiger freier Port)
  --static DIR      das gebaute Fenster (Standard: out/renderer dieses Pakets)
  --link-options -- PFAD
                    den Browser bei den Link-Optionen der synchronisierten Datei oder des
                    Ordners PFAD öffnen (sein Dienst, kein --server); endet, wenn die Seite
                    geschlossen wird
  --state DIR       Zustandsordner: Einstellungen, Journale, Protokolle, Papierkorb{demo, select, yes { (mit der
                    Sandbox und ohne --state: ein temporärer, beim Beenden entfernt)} other {}}
  --verbose         das Protokoll auch auf stderr; Stacktraces bei Fehlern
  -h, --help        dieser Text`,
  'cli.help.link': `Aufruf: {program} link PFAD [--copy] [Optionen]

Gibt den Freigabelink einer synchronisierten Datei oder eines Ordners aus: die Adresse, unter der
jeder mit dem Link sie öffnet. Ein ausgeschalteter Link wird zuerst eingeschaltet, wie „Link
kopieren“ im Fenster (Ihre Rolle muss das Ändern von Links erlauben: Moderator und höher), und
der Befehl sagt es.

  --copy             den Link auch in die Zwischenablage legen (wl-copy, xclip oder xsel unter Linux)
  --notify           auch in einer Desktop-Benachrichtigung sagen, wie es ging (notify-send), für
                     Menüs von Dateimanagern, die kein Terminal zeigen
  --token-file PATH  ein Zugriffstoken für den Server des Ordners aus PATH lesen (- für die
                     Standardeingabe); Standard: $WORKSPACE_SYNC_TOKEN, sonst das gemerkte Konto,
                     das den Ordner synchronisiert
  --token TOKEN      dasselbe, von der Befehlszeile (für jeden Benutzer in ps sichtbar: vermeiden)
{proxy}
  --state DIR        Zustandsordner: Einstellungen, Journale, Protokolle, Papierkorb
                     (Standard: $WORKSPACE_SYNC_STATE oder der des Systems)
  --verbose          das Protokoll auch auf stderr; Stacktraces bei Fehlern
  -h, --help         dieser Text

Der Link geht auf stdout, in einer Zeile; was sonst geschah (kopiert, eingeschaltet), auf stderr.
Exit-Status 1, wenn PFAD (noch) nicht synchronisiert ist oder der Dienst ablehnte.

Beispiele:
  {program} link ~/Q3/Reports/Summary.pdf
  {program} link --copy ~/Q3/Reports`,
  'cli.help.integrate': `Aufruf: {program} integrate --install | --uninstall [Optionen]

Fügt „{label}“ dem Kontextmenü der Linux-Dateimanager hinzu, nur für Sie:
Nautilus (ein Skript), Nemo (eine Aktion), Dolphin (ein Dienstmenü, KDE 6 und 5) und Thunar (eine
benutzerdefinierte Aktion, zu Ihren anderen hinzugefügt). Es führt „{program} link --copy --notify“
für das Element aus: Der Link kommt in die Zwischenablage und eine Benachrichtigung sagt es, oder
warum nicht. Außerdem öffnen sich Platzhalter (NAME.wsync) mit einem Doppelklick: ein MIME-Typ
für sie, ein Öffner, der „{program} files open“ auf einem ausführt, und dieser Öffner als ihre
Standardanwendung (in mimeapps.list). Dazu die Einträge für Dateien bei Bedarf, für ein oder
mehrere Elemente (Nautilus und Dolphin: im Untermenü „Workspace Sync“): Jetzt herunterladen,
Immer auf diesem Gerät behalten, Nicht mehr immer behalten und Speicherplatz freigeben; sie
führen „{program} files download|pin|unpin|free --notify“ auf ihnen aus.

  --install      die Einträge schreiben (erneut: zweimal ausgeführt ändert sich nichts)
  --uninstall    sie entfernen (die anderen Aktionen von Thunar und die anderen Zeilen von
                 mimeapps.list bleiben)
  --state DIR    der Zustandsordner, den die Einträge verwenden (Standard: $WORKSPACE_SYNC_STATE
                 oder der des Systems); in sie geschrieben, da ein Dateimanager die Umgebung
                 Ihrer Shell nicht hat
  --verbose      das Protokoll auch auf stderr; Stacktraces bei Fehlern
  -h, --help     dieser Text

Die geschriebenen oder entfernten Dateien stehen auf stdout, eine pro Zeile. Die Desktop-App
installiert dieselben Einträge (die die App statt des CLI ausführen) bei jedem Start.`,
  'cli.help.proxy1': 'über diesen Proxy gehen, http://[user:password@]host:port',
  'cli.help.proxy2': '(Standard: $HTTPS_PROXY, $HTTP_PROXY, außer $NO_PROXY)',

  'cli.err.valueMissing': 'Die Option {option} verlangt einen Wert',
  'cli.err.takesNoValue': 'Die Option {option} nimmt keinen Wert',
  'cli.err.ambiguous':
    'Der Wert der Option {option} ist mehrdeutig (ein Wert, der mit - beginnt: {option}=WERT)',
  'cli.err.unexpectedArgument': 'unerwartetes Argument {arg}',
  'cli.err.required': '{option} fehlt',
  'cli.err.positiveInt': '{option} verlangt eine positive ganze Zahl, nicht „{value}“',
  'cli.err.positiveNumber': '{option} verlangt eine positive Zahl, nicht „{value}“',
  'cli.err.proxy': '--proxy: {problem}',
  'cli.err.proxy.noScheme':
    'Geben Sie den Proxy als URL an, die mit http:// beginnt, etwa {example}',
  'cli.err.proxy.scheme':
    'Nur http://- (oder https://-)Proxys sind möglich, kein {scheme}://: Schreiben Sie ihn etwa als {example}',
  'cli.err.proxy.notUrl':
    'Der Proxy ist keine gültige URL (prüfen Sie Host und Port): Schreiben Sie ihn etwa als {example}',
  'cli.err.proxy.noHost':
    'Die URL des Proxys nennt keinen Host: Schreiben Sie sie etwa als {example}',
  'cli.err.proxy.path':
    'Eine Proxy-URL besteht nur aus Host und Port, ohne Pfad: Schreiben Sie sie etwa als {example}',
  'cli.err.proxy.noUser':
    'Die URL des Proxys hat ein Passwort, aber keinen Benutzernamen: Schreiben Sie user:password@ vor den Host',
  'cli.err.dirIsFile': '--dir {dir} ist eine Datei, kein Ordner',
  'cli.err.dirUnderFile': '--dir {dir} kann kein Ordner sein: {file} ist eine Datei',
  'cli.err.dirOverlaps':
    '--dir {dir} liegt in oder um {other}, das hier bereits den Arbeitsbereich {workspace} synchronisiert: Wählen Sie einen Ordner außerhalb davon',
  'cli.err.notEmpty':
    '{more, select, yes {--dir {dir} enthält mehr als {n, number} Objekte} other {{n, plural, one {--dir {dir} enthält # Objekt} other {--dir {dir} enthält # Objekte}}}}, die diese erste Synchronisierung nach „{workspace}“ hochladen würde: Geben Sie --merge an, um sie zusammenzuführen, oder wählen Sie einen leeren Ordner.',
  'cli.err.exclusive': '{a} und {b} schließen einander aus',
  'cli.err.notBoth': '{a} und {b} lassen sich nicht zusammen angeben',
  'cli.err.serverOrSandbox':
    '--server URL fehlt (oder --sandbox, um statt eines Dienstes die eingebettete Demo-Sandbox zu nutzen)',
  'cli.err.noSandbox':
    'Die eingebettete Demo-Sandbox (--sandbox) gibt es nur beim Start aus dem Quellcode (npm run -s cli): Geben Sie --server URL an.',
  'cli.err.sandboxNoUsers': 'Die eingebettete Sandbox hat keine Benutzer.',
  'cli.err.sandboxNoUser':
    'Die eingebettete Sandbox hat keinen Benutzer {email}; ihre Benutzer sind {users}.',
  'cli.err.tokenNeedsServer': '--token verlangt --server',
  'cli.err.limit':
    '{option} verlangt eine ganze Zahl von KB/s von 0 (keine Grenze) bis {max, number}, nicht „{value}“',
  'cli.err.notBuilt':
    'Das Fenster ist nicht gebaut ({dir} enthält keine index.html): Führen Sie zuerst „npm run build“ aus, dann erneut „ui“.',
  'cli.err.noWindowIn': '--static {dir} enthält kein Fenster (keine index.html darin).',
  'cli.err.port': '--port verlangt eine Portnummer (0–65535), nicht „{value}“',
  'cli.err.notUrl': '{option} „{value}“ ist keine URL',
  'cli.err.store': '--store verlangt keychain oder file, nicht „{value}“',
  'cli.err.cannotRemember': '{reason}; oder legen Sie es mit --store file in einer Datei ab.',
  'cli.err.noAccountFile': '--store file: Dieses Programm legt hier keine Kontodatei an.',
  'cli.err.signInCancelled': 'Anmeldung abgebrochen.',
  'cli.err.noPasswordRead': 'Kein Passwort gelesen ({why}).',
  'cli.err.noTerminal':
    'Das Passwort lässt sich nicht abfragen: Die Standardeingabe ist kein Terminal. Leiten Sie es mit --password-stdin hinein.',
  'cli.err.noPassword': 'Kein Passwort angegeben.',
  'cli.err.signInRefused': '{server} hat die Anmeldung von {email} abgelehnt: {reason}',
  'cli.err.noAccount': 'Für {server} ist kein Konto gemerkt.',
  'cli.err.noAccountOf': 'Für {server} ist kein Konto {email} gemerkt.',
  'cli.err.oneAtATime':
    'Wählen Sie eine Datei oder einen Ordner auf einmal ({n, plural, one {# wurde angegeben} other {# wurden angegeben}}).',
  'cli.err.installOrUninstall': 'Wählen Sie --install oder --uninstall',
  'cli.err.noLauncher': 'Das Startprogramm von {program} ist nicht zu finden ({bin}).',
  'cli.err.noSuchFolder': '{option} {path}: Diesen Ordner gibt es im Arbeitsbereich nicht',
  'cli.err.notExist': '{path} gibt es nicht.',
  'cli.err.oneItem':
    '{option} nimmt eine synchronisierte Datei oder einen Ordner: das Element, dessen Link-Optionen geöffnet werden.',
  'cli.ui.openTheUrl':
    'Es ließ sich kein Browser öffnen: Öffnen Sie die oben ausgegebene URL in einem.',
  'cli.err.notSyncFolder':
    '{path} ist kein synchronisierter Ordner (keine Synchronisierung davon in {state}): Starten Sie eine mit „{program} sync --dir {dir} ...“.',
  'cli.signalAgain': 'erneut {signal}, wird sofort beendet',
  'cli.passwordPrompt': 'Passwort für {email}: ',
  'cli.apiBase':
    '{program}: {given} ist nicht die API des Dienstes; {found} wird verwendet (geben Sie das als --server an, um diese Prüfung zu überspringen).',
  'cli.token.warning':
    '{program}: Warnung: --token legt das Token auf die Befehlszeile, wo jeder Benutzer dieses Computers es lesen kann (ps): Verwenden Sie stattdessen --token-file PFAD (oder - für die Standardeingabe) oder WORKSPACE_SYNC_TOKEN.',
  'cli.token.prompt': 'Zugriffstoken: ',
  'cli.token.needsFile': '--token-file verlangt eine Datei (oder - für die Standardeingabe)',
  'cli.token.missing': '--token-file {file} gibt es nicht.',
  'cli.token.isFolder': '--token-file {file} ist ein Ordner, keine Datei.',
  'cli.token.denied': '--token-file {file} lässt sich nicht lesen (keine Berechtigung).',
  'cli.token.unreadable': '--token-file {file} lässt sich nicht lesen ({code}).',
  'cli.token.tooLong': '--token-file {file}: {file} enthält mehr als ein Token (über 64 KiB).',
  'cli.token.stdinTooLong':
    '--token-file -: Die Standardeingabe enthält mehr als ein Token (über 64 KiB).',
  'cli.token.empty': '--token-file {file} ist leer.',
  'cli.token.stdinEmpty': '--token-file -: Die Standardeingabe enthielt kein Token.',
  'cli.link.turnedOn':
    'Der Link war ausgeschaltet: Jetzt ist er an, sodass jeder mit dem Link {kind, select, folder {den Ordner} other {die Datei}} öffnen kann.',
  'cli.link.password': 'Beim Öffnen wird nach dem Passwort des Links gefragt.',
  'cli.link.until': 'Er gilt bis {date}.',
  'cli.link.summary': 'Link von {name}',
  'cli.link.copiedSummary': 'Link von {name} kopiert',
  'cli.link.failed': 'Workspace Sync konnte den Link nicht kopieren',
  // The file managers' menu entry (`integrate`): each language's words written into it.
  'integrate.menuLabel': 'Workspace-Sync-Link kopieren',
  'integrate.menuTooltip': 'Den Freigabelink dieses Elements in die Zwischenablage kopieren',
  'integrate.optionsLabel': 'Link mit Optionen kopieren…',
  'integrate.optionsTooltip':
    'Passwort und Ablaufdatum des Freigabelinks festlegen, ihn ein- oder ausschalten, kopieren',
  'integrate.files.download': 'Jetzt herunterladen',
  'integrate.files.downloadTooltip': 'Die Datei (oder jede Datei im Ordner) auf dieses Gerät holen',
  'integrate.files.pin': 'Immer auf diesem Gerät behalten',
  'integrate.files.pinTooltip': 'Es und jede Datei, die darin ankommt, auf diesem Gerät behalten',
  'integrate.files.unpin': 'Nicht mehr immer behalten',
  'integrate.files.unpinTooltip':
    'Nicht mehr immer auf diesem Gerät behalten (jetzt wird nichts freigegeben)',
  'integrate.files.free': 'Speicherplatz freigeben',
  'integrate.files.freeTooltip':
    'Nur online behalten: ein Platzhalter bleibt, die Datei kommt in den Papierkorb',
  'cli.integrate.added': '„{label}“ wurde den Menüs der Dateimanager hinzugefügt.',
  'cli.integrate.removed': '„{label}“ wurde entfernt.',
  'cli.integrate.nothing': 'Es gab keinen Eintrag zu entfernen.',
  'cli.integrate.filesAdded':
    '{labels} (Dateien bei Bedarf) wurden den Menüs der Dateimanager hinzugefügt.',
  'cli.integrate.filesRemoved': '{labels} wurden entfernt.',
  'cli.integrate.failed':
    'Nicht jeder Eintrag ließ sich {verb, select, write {schreiben} other {entfernen}}. {failures}',
  'integrate.placeholderType': 'Workspace-Sync-Platzhalter (nur online)',
  'integrate.openerName': 'Workspace Sync: herunterladen und öffnen',
  'integrate.openerComment': 'Die Datei dieses Platzhalters herunterladen und öffnen',
  'integrate.part.mimeType': 'MIME-Typ',
  'integrate.part.opener': 'Öffner',
  'integrate.part.defaultApp': 'Standardanwendung',
  'cli.integrate.openerAdded':
    'Ein Doppelklick auf einen Platzhalter (NAME.wsync) in einem Dateimanager lädt die Datei jetzt herunter und öffnet sie.',
  'cli.integrate.openerRemoved': 'Der Öffner für Platzhalter wurde entfernt.',
  'cli.integrate.toolMissing':
    '{tool} wurde nicht gefunden (Debian: sudo apt-get install {package}): Dateimanager erkennen Platzhalter erst, wenn es auf {dir} gelaufen ist.',
  'cli.integrate.toolFailed': '{tool} ist auf {dir} fehlgeschlagen: {why}',
  'cli.link.err.outside': '{path} liegt in keinem Ordner, den Workspace Sync synchronisiert.',
  'cli.link.err.rootNotYet':
    '{path} wurde noch nicht synchronisiert: Versuchen Sie es erneut, sobald das geschehen ist.',
  'cli.link.err.notYet':
    '{path} wurde noch nicht synchronisiert: Versuchen Sie es erneut, sobald Workspace Sync es synchronisiert hat.',
  'cli.link.err.cache':
    '{path} ist der eigene Arbeitsordner von Workspace Sync: nicht synchronisiert.',
  'cli.link.err.changed':
    '{path} hat sich seit der letzten Synchronisierung geändert: Versuchen Sie es erneut, sobald Workspace Sync es synchronisiert hat.',
  'cli.link.err.off':
    'Der Link von {name} ist ausgeschaltet, und Ihre Rolle im Arbeitsbereich kann ihn nicht einschalten: Fragen Sie einen Moderator oder den Eigentümer des Arbeitsbereichs.',
  'cli.link.err.password':
    'Der Link von {name} ist ausgeschaltet, und dieser Dienst schaltet Links nur mit Passwort ein: Wählen Sie eines mit „Link mit Optionen kopieren…“ (oder in den Details des Elements).',
  'cli.link.err.expired':
    'Der Link von {name} ist am {date} abgelaufen: Ein Moderator kann ihm im Fenster von Workspace Sync ein neues Ablaufdatum geben.',
  'cli.link.err.gone':
    '{path} ist nicht mehr im Dienst (dort gelöscht, oder Sie haben den Zugriff darauf verloren).',
  'cli.clipboard.noDisplay':
    'Es gibt keine Anzeige, in deren Zwischenablage kopiert werden kann (weder DISPLAY noch WAYLAND_DISPLAY ist gesetzt).',
  'cli.clipboard.failed':
    'Kopieren in die Zwischenablage fehlgeschlagen: {tool} konnte nicht kopieren: {message}',
  'cli.clipboard.noTool': 'Kein Programm für die Zwischenablage gefunden ({tools}).',
  'cli.clipboard.install':
    'Kein Programm für die Zwischenablage gefunden: Installieren Sie xclip, xsel oder wl-clipboard.',
  'cli.integrate.emptyCommand': 'Der Befehl der Dateimanager-Einträge ist leer.',
  'cli.integrate.lineBreak': 'Der Befehl enthält einen Zeilenumbruch in „{arg}“.',
  'cli.integrate.nemoToken':
    'Der Befehl enthält „{token}“ in „{arg}“, was Nemo ersetzen würde: Installieren Sie von einem Pfad ohne dies.',
  'cli.integrate.notXml':
    '{file} ist kein gültiges XML ({why}): Die Datei bleibt, wie sie ist; korrigieren oder verschieben Sie sie, dann versuchen Sie es erneut.',
  'cli.integrate.notThunar':
    '{file} ist nicht die Liste der benutzerdefinierten Aktionen von Thunar (kein <actions>): Sie bleibt, wie sie ist.',
  'cli.folders.synced': 'synchronisiert        {name}',
  'cli.folders.notSynced': 'nicht synchronisiert  {name}',
  'cli.folders.leftOut':
    'Ausgelassen: {names}. Die nächste Synchronisierung verschiebt die Kopie hier in den Papierkorb, außer sie enthält noch nicht gesendete Änderungen.',
  'cli.folders.chosenAgain':
    'Wieder ausgewählt: {names}. Die nächste Synchronisierung lädt es herunter.',
  'cli.help.files': `Aufruf: {program} files download|free|pin|unpin|status|open PFAD... [Optionen]

Dateien bei Bedarf, für Dateien und Ordner in einem synchronisierten Ordner. Eine nur online
aufbewahrte Datei ist hier ein Platzhalter, NAME.wsync, ein kurzer Text ohne ihren Inhalt; ihn zu
lesen lädt nichts herunter.

  download  die Datei (oder jede Datei des Ordners) unter ihrem richtigen Namen herunterladen
  free      zurück zum Platzhalter; die Datei kommt in den Papierkorb. Nur eine Datei, deren
            Bytes hier die im Dienst sind: eine Datei mit noch nicht gesendeten Änderungen wird
            nie freigegeben
  pin       immer auf diesem Gerät behalten: sie und jede Datei, die darunter ankommt, kommt ganz
  unpin     nicht mehr angeheftet (nichts wird dadurch heruntergeladen oder freigegeben)
  status    für jeden PFAD: auf diesem Gerät, nur online, angeheftet
  open      herunterladen, dann die Datei mit ihrem üblichen Programm öffnen

PFAD darf einen Platzhalter (bericht.pdf.wsync) oder seine Datei (bericht.pdf) nennen. download,
free, pin und open synchronisieren den Ordner einmal, bevor sie enden, damit erledigt ist, was sie
taten (wie „{program} sync --once“); sie lehnen ab, während ein anderes {program} den Ordner
synchronisiert.

  --token-file PFAD  ein Zugriffstoken für den Server des Ordners aus PFAD lesen (- für die
                     Standardeingabe); sonst $WORKSPACE_SYNC_TOKEN, sonst das gemerkte Konto, das
                     den Ordner synchronisiert
  --token TOKEN      dasselbe, auf der Befehlszeile (für alle Benutzer in ps sichtbar: vermeiden)
  --notify           ein Herunterladen zum Öffnen und einen Fehler auch als Desktop-Hinweis
                     melden (was der Doppelklick im Dateimanager ausführt: ohne Terminal)
{proxy}
  --state ORDNER     Zustandsordner: Einstellungen, Journale, Protokolle, Papierkorb
                     (Standard: $WORKSPACE_SYNC_STATE oder der der Plattform)
  --verbose          das Protokoll auch auf stderr; Stacktraces bei Fehlern
  -h, --help         dieser Text`,
  'cli.files.err.op':
    'Unbekannte Aktion „{op}“: download, free, pin, unpin, status oder open verwenden.',
  'cli.files.err.outside':
    '{path} liegt in keinem Ordner, den Workspace Sync synchronisiert. Eine Datei oder einen Ordner in einem synchronisierten Ordner nennen.',
  'cli.files.err.openOne': 'files open nimmt einen Pfad, nicht {n}: sie einzeln öffnen.',
  'cli.files.here': '{path}: auf diesem Gerät{pinned, select, yes {, angeheftet} other {}}',
  'cli.files.online': '{path}: nur online{pinned, select, yes {, angeheftet} other {}}',
  'cli.files.partly':
    '{path}: {online, number} von {files, number} Dateien nur online{pinned, select, yes {, angeheftet} other {}}',
  'cli.files.notSynced': '{path}: (noch) nicht synchronisiert',
  'cli.files.opening': '{path} wird geöffnet',
  'cli.files.notify.downloading': '{name} wird heruntergeladen …',
  'cli.files.notify.failed': 'Workspace Sync konnte {name} nicht öffnen',
  'app.open.notYet':
    '{name} ist noch nicht heruntergeladen: sein Ordner hat es jetzt nicht synchronisiert (pausiert, offline oder ein Problem damit, unter Status zu sehen). Erneut versuchen, sobald er synchronisiert.',
  'cli.files.notify.done':
    '{action, select, download {{name} wurde heruntergeladen} pin {{name} wird immer auf diesem Gerät behalten} unpin {{name} wird nicht mehr immer auf diesem Gerät behalten} other {Der Speicherplatz von {name} wurde freigegeben: jetzt nur online}}{others, plural, =0 {} one { (und # weiteres Element)} other { (und # weitere Elemente)}}',
  'cli.files.notify.downloadingMany':
    '{others, plural, =0 {{name} wird heruntergeladen …} one {{name} und # weiteres Element werden heruntergeladen …} other {{name} und # weitere Elemente werden heruntergeladen …}}',
  'cli.files.notify.actionFailed':
    '{action, select, download {Workspace Sync konnte {name} nicht herunterladen} pin {Workspace Sync konnte {name} nicht immer behalten} unpin {Workspace Sync konnte „Immer behalten“ für {name} nicht aufheben} other {Workspace Sync konnte den Speicherplatz von {name} nicht freigeben}}',
  'cli.files.err.mode': '--on-demand nimmt online oder full, nicht „{value}“.',
  'cli.files.err.days':
    '--free-unused-days nimmt eine Zahl von Tagen (1 bis 36500) oder off, nicht „{value}“.',
  'cli.help.folders': `Aufruf: {program} folders DIR [--exclude PFAD]... [--include PFAD]... [Optionen]

Zeigt, welche Ordner des in DIR synchronisierten Arbeitsbereichs auf diesem Computer
synchronisiert werden, und ändert es (selektive Synchronisierung). Ein ausgelassener Ordner wird
samt allem darunter weder heruntergeladen noch hochgeladen; seine Kopie hier kommt bei der
nächsten Synchronisierung in den Papierkorb, außer etwas darin wurde noch nicht gesendet (dann
bleibt sie, und die Synchronisierung sagt es). Im Dienst wird nichts gelöscht. Ein wieder
ausgewählter Ordner kommt bei der nächsten Synchronisierung herunter. Später im Dienst angelegte
Ordner werden synchronisiert.

  --exclude PFAD     diesen Ordner des Arbeitsbereichs auslassen (z. B. Reports/2023); wiederholbar
  --include PFAD     diesen Ordner wieder synchronisieren; wiederholbar
  --token-file PATH  ein Zugriffstoken für den Server des Ordners aus PATH lesen (- für die
                     Standardeingabe); Standard: $WORKSPACE_SYNC_TOKEN, sonst das gemerkte Konto,
                     das den Ordner synchronisiert
  --token TOKEN      dasselbe, auf der Befehlszeile (für jeden Benutzer in ps sichtbar: vermeiden)
{proxy}
  --state DIR        Zustandsordner: Einstellungen, Journale, Protokolle, Papierkorb
                     (Standard: $WORKSPACE_SYNC_STATE oder der der Plattform)
  --verbose          das Protokoll auf stderr spiegeln; Stacktraces bei Fehlern
  -h, --help         dieser Text

Aufgelistet werden die obersten Ordner des Arbeitsbereichs und die tieferen ausgelassenen, einer
pro Zeile: „synchronisiert“ oder „nicht synchronisiert“, dann der Pfad.

Beispiele:
  {program} folders ~/Q3
  {program} folders ~/Q3 --exclude Archive --exclude "Reports/2023"
  {program} folders ~/Q3 --include Archive`,

  'account.emptyToken': '--token ist leer',
  'account.tokenRefused':
    '{server} hat das Zugriffstoken abgelehnt (abgelaufen oder widerrufen): Holen Sie ein neues, oder melden Sie sich mit „{program} login --server {server} --email EMAIL“ an.',
  'account.notSignedIn':
    'Nicht bei {server} angemeldet: Führen Sie zuerst „{program} login --server {server} --email EMAIL“ aus, oder geben Sie --token an.',
  'account.notSignedInAs':
    'Nicht als {email} bei {server} angemeldet: Führen Sie zuerst „{program} login --server {server} --email {email}“ aus, oder geben Sie --token an.',
  'account.signedOut':
    'Sie sind von {server} abgemeldet: Führen Sie „{program} login --server {server} --email {email}“ erneut aus.',
  'account.notApiBase':
    '{server} ist nicht die API des Dienstes (dort gibt es keine Arbeitsbereiche): Geben Sie die Basis-URL der API an, etwa {example}.',
  'account.ambiguous':
    'Auf {server} gibt es mehrere Konten ({emails}): Wählen Sie eines mit --email.',
  'account.notUrl': '„{server}“ ist keine URL',
  'account.noKeychain':
    'Kein Schlüsselbund ist verfügbar, um das Konto zu merken ({problem}). Verwenden Sie --token oder WORKSPACE_SYNC_TOKEN, oder {os, select, linux {starten Sie einen Secret Service wie gnome-keyring} other {stellen Sie sicher, dass der Schlüsselbund des Systems entsperrt ist}}.',
  'account.noKeychainNoCipher':
    'Kein Schlüsselbund ist verfügbar, um das Konto zu merken ({problem}; auch die Verschlüsselung des Systems fehlt): {os, select, linux {Starten Sie einen Secret Service wie gnome-keyring} other {Stellen Sie sicher, dass der Schlüsselbund des Systems entsperrt ist}}, dann melden Sie sich erneut an.',
  'account.unreachable':
    '{server} ist nicht erreichbar ({code}): Prüfen Sie die Serveradresse und die Verbindung dieses Computers.',
  'account.noAnswer':
    '{server} hat nicht innerhalb von {seconds} Sekunden geantwortet: Prüfen Sie die Serveradresse und die Verbindung dieses Computers.',
  'account.noFileStore': 'Dieser Kontospeicher legt keine Datei mit Konten an.',
  'account.unreadable':
    '{file} lässt sich nicht lesen ({why}): Löschen Sie die Datei, dann melden Sie sich erneut an.',
  'account.notAList': 'ihr Inhalt ist keine Liste von Konten',
  'account.notJson':
    '{file} ist kein gültiges JSON: Korrigieren oder löschen Sie die Datei, dann melden Sie sich erneut an.',
  'account.noList':
    '{file} enthält keine Kontenliste: Korrigieren oder löschen Sie die Datei, dann melden Sie sich erneut an.',
  'account.lockHeld':
    'Ein anderer Workspace-Sync-Prozess hielt das Konto über eine halbe Minute belegt ({file}); versuchen Sie es erneut.',
  'account.lockFailed': 'Das Konto konnte für eine Änderung nicht gesperrt werden ({file}: {why}).',
};
