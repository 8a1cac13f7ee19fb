import { EventEmitter } from 'node:events';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import {
  LANGUAGES,
  languageOfEnv,
  pickLanguage,
  resolveLanguage,
  translator,
} from '../../src/shared/i18n';
import { describeSummary } from '../../src/main/cli/output';
import { Journal } from '../../src/main/journal/journal';
import { emptySummary } from '../../src/shared/sync-status';
import { summarizeCauses, type AttentionCause } from '../../src/main/platform/attention-notices';
import { describeFailure, retryMessage } from '../../src/main/sync/loop/failure';
import { StatusModel, type EngineEvents } from '../../src/main/sync/loop/status';
import { silentLogger } from '../../src/main/sync/ports';
import { de } from '../../src/shared/i18n/de';
import { en, type MessageKey } from '../../src/shared/i18n/en';

/** The names of a message's parameters, from its parsed form (plural and select bodies too). */
function paramsOf(message: string, locale: string): string[] {
  const names = new Set<string>();
  const walk = (nodes: unknown[]): void => {
    for (const node of nodes as { type: number; value?: unknown; options?: unknown }[]) {
      if (typeof node.value === 'string' && node.type !== 0 && node.type !== 7)
        names.add(node.value);
      if (node.options && typeof node.options === 'object')
        for (const option of Object.values(node.options as Record<string, { value: unknown[] }>))
          walk(option.value);
    }
  };
  walk(new IntlMessageFormat(message, locale, undefined, { ignoreTag: true }).getAst());
  return [...names].sort();
}

describe('the message catalog', () => {
  const keys = Object.keys(en) as MessageKey[];

  it('has every English key in German, each parsing and taking the same parameters', () => {
    expect(Object.keys(de).sort()).toEqual([...keys].sort());
    expect(paramsOf(en['progress.items'], 'en-US')).toEqual(['done', 'n', 'total']);
    for (const key of keys) {
      expect(paramsOf(de[key], 'de-DE'), key).toEqual(paramsOf(en[key], 'en-US'));
    }
  });

  it('formats every message of every language without throwing', () => {
    for (const lang of LANGUAGES) {
      const tr = translator(lang);
      for (const key of keys) {
        const params = Object.fromEntries(paramsOf(en[key], 'en-US').map((p) => [p, 2]));
        expect(tr.t(key, params), `${lang} ${key}`).not.toMatch(/[{}]/);
      }
    }
  });

  it('plurals by the language’s rules and writes numbers its way', () => {
    const en = translator('en');
    const de = translator('de');
    expect(en.t('activity.newEvents', { n: 1 })).toBe('1 new event');
    expect(en.t('activity.newEvents', { n: 1500 })).toBe('1,500 new events');
    expect(de.t('activity.newEvents', { n: 1 })).toBe('1 neues Ereignis');
    expect(de.t('activity.newEvents', { n: 0 })).toBe('0 neue Ereignisse');
    expect(de.t('activity.newEvents', { n: 1500 })).toBe('1.500 neue Ereignisse');
    expect(de.say({ key: 'progress.download', params: { name: 'a.txt' } })).toBe(
      'a.txt wird heruntergeladen',
    );
  });

  it('chooses the language from the setting, else the preferred locales or the environment', () => {
    expect(pickLanguage(['de-AT', 'en-US'])).toBe('de');
    expect(pickLanguage(['fr-FR', 'de-DE'])).toBe('en'); // the first preference decides
    expect(pickLanguage([])).toBe('en');
    expect(resolveLanguage('system', ['de-DE'])).toBe('de');
    expect(resolveLanguage('en', ['de-DE'])).toBe('en');
    expect(resolveLanguage(undefined, ['de'])).toBe('de');
    expect(languageOfEnv({ LANG: 'de_DE.UTF-8' })).toBe('de');
    expect(languageOfEnv({ LANG: 'de_DE.UTF-8', LC_ALL: 'C.UTF-8' })).toBe('en');
    expect(languageOfEnv({ LC_MESSAGES: 'de_CH.UTF-8', LANG: 'en_US.UTF-8' })).toBe('de');
  });
});

describe('the engine’s sentences as data', () => {
  it('says a failure and its retry in each language, a sentence inside another without its stop', () => {
    const failure = describeFailure(Object.assign(new Error('no'), { code: 'EACCES' }), '/x');
    const retry = retryMessage(failure, 4_200);
    expect(failure.message).toBe(
      'The sync folder cannot be written (EACCES): check its permissions.',
    );
    expect(typeof retry === 'object' && translator('en').say(retry)).toBe(
      'The sync folder cannot be written (EACCES): check its permissions: trying again in 5 s',
    );
    expect(typeof retry === 'object' && translator('de').say(retry)).toBe(
      'In den synchronisierten Ordner kann nicht geschrieben werden (EACCES): Prüfen Sie seine Berechtigungen: neuer Versuch in 5 s',
    );
    // A key from a newer engine is said as itself, not a crash.
    expect(translator('de').say({ key: 'engine.fromTheFuture' })).toBe('engine.fromTheFuture');
  });

  it('puts words and their English in the status', () => {
    const events = new EventEmitter<EngineEvents>();
    const journal = new Journal(':memory:');
    const status = new StatusModel(journal, silentLogger, events);
    status.setState('syncing', { key: 'engine.syncingItems', params: { n: 1_500 } });
    expect(status.snapshot()).toMatchObject({
      message: 'Syncing 1,500 items',
      words: { key: 'engine.syncingItems', params: { n: 1_500 } },
    });
    status.note('a/Plan.txt', {
      key: 'engine.bothChanged',
      params: { theirs: 'Plan.txt', yours: 'Plan (conflict).txt' },
    });
    const [note] = status.snapshot().conflicts;
    expect(note?.message).toBe(
      "Changed here and on the service: both kept; the service's version is Plan.txt, yours is Plan (conflict).txt.",
    );
    expect(translator('de').say(note!.words!)).toBe(
      'Hier und im Dienst geändert: Beide bleiben erhalten; die Version des Dienstes ist Plan.txt, Ihre ist Plan (conflict).txt.',
    );
    status.addProblem({
      path: 'a/b.txt',
      remoteId: 7,
      reason: 'not-permitted',
      message: 'Your role in this workspace does not allow downloading it.',
      words: { key: 'engine.noDownload' },
    });
    const [problem] = status.snapshot().problems;
    expect(problem?.message).toBe('Your role in this workspace does not allow downloading it.');
    expect(translator('de').say(problem!.words!)).toBe(
      'Ihre Rolle in diesem Arbeitsbereich erlaubt nicht, es herunterzuladen.',
    );
    status.setState('error', 'An error’s own text');
    expect(status.snapshot().message).toBe('An error’s own text');
    expect(status.snapshot().words).toBeUndefined();
    journal.close();
  });
});

describe('notifications in German', () => {
  it('says a burst of conflicts and a sign-out with German plurals', () => {
    const cause = (key: string, kind: AttentionCause['kind'], pairId: string): AttentionCause => ({
      key,
      kind,
      pairId,
      workspaceName: pairId,
      text: 'Budget.txt',
    });
    const de = translator('de');
    expect(summarizeCauses([cause('conflict:1', 'conflict', 'Q3')], de)?.body).toBe(
      'Budget.txt wurde hier und im Dienst geändert: Beide Versionen bleiben erhalten; wählen Sie eine in Workspace Sync.',
    );
    const burst = [
      cause('conflict:1', 'conflict', 'Q3'),
      cause('conflict:2', 'conflict', 'Q3'),
      cause('signed-out', 'signed-out', 'Q4'),
    ];
    expect(summarizeCauses(burst, de)).toMatchObject({
      title: 'Workspace Sync',
      body: '2 Konflikte zu lösen; abgemeldet: Melden Sie sich erneut an, um weiter zu synchronisieren in 2 Ordnern.',
    });
    expect(summarizeCauses(burst, translator('en'))?.body).toBe(
      '2 conflicts to settle; signed out: sign in again to continue syncing in 2 folders.',
    );
  });
});

describe('the CLI’s summary', () => {
  it('plurals each count in the language', () => {
    const s = { ...emptySummary(), filesDownloaded: 1, bytesDownloaded: 1_700_000, problems: 2 };
    expect(describeSummary(s, translator('de'))).toBe(
      'Synchronisierung abgeschlossen: 0 Ordner angelegt, 1 Datei heruntergeladen (1,7 MB), 0 verschoben, 0 in den Papierkorb verschoben, 0 Konflikte, 2 Probleme.',
    );
    expect(describeSummary(s)).toBe(
      'Sync complete: 0 folders created, 1 file downloaded (1.7 MB), 0 moved, 0 moved to the trash, 0 conflicts, 2 problems.',
    );
  });
});

describe('an error with words', () => {
  it('is said in the reader’s language by the CLI and crosses to the window as data', async () => {
    const { UsageError, CliError } = await import('../../src/main/cli/common');
    const { sayError } = await import('../../src/main/errors/user-error');
    const { toAppError } = await import('../../src/main/backend/errors');
    const { AppCallError } = await import('../../src/shared/app-api');
    const words = { key: 'cli.unknownOption', params: { option: '--frob' } } as const;
    const german = translator('de');

    const usage = new UsageError(words, 'sync');
    expect(usage.message).toBe('unknown option --frob');
    expect(sayError(german, usage)).toBe('unbekannte Option --frob');
    // Without words: the English text, as before.
    expect(sayError(german, new CliError('plain words'))).toBe('plain words');

    // The window gets the words beside the English; a generic failure keeps the kind it had.
    const app = toAppError(new CliError(words));
    expect(app).toEqual({ kind: 'invalid', message: 'unknown option --frob', words });
    expect(toAppError(new Error('EACCES /secret/path'))).toMatchObject({ kind: 'internal' });
    expect(new AppCallError(app).words).toEqual(words);
  });
});
