import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { de } from '../../src/shared/i18n/de';
import { en, type MessageKey } from '../../src/shared/i18n/en';
import { translator } from '../../src/shared/i18n';
import {
  expectAccessible,
  shots,
  shown,
  type Bridge,
  openSession,
  type Session,
  screenshotOnFailure,
} from './harness';

// The window in German, as a person on a German system sees it: Chromium's language is de-DE
// and the setting is System, against `cli ui --sandbox` (signed in as the demo owner). Each view
// is read whole (its text, and the names and hints a screen reader says) and must hold no word
// that only English uses: the words of the English catalog that no German message has.

let session: Session;
let bridge: Bridge;
let page: Page;

const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Hauptmenü' }).getByRole('button', { name });
const contents = () => page.getByRole('table', { name: 'Ordnerinhalt' });

const wordsOf = (text: string) => text.toLowerCase().match(/\p{L}[\p{L}’']*/gu) ?? [];
/** What a language's catalog says, each message with 1 and with 2 for every parameter. */
function saidIn(lang: 'en' | 'de'): Set<string> {
  const tr = translator(lang);
  const catalog = lang === 'en' ? en : de;
  return new Set(
    (Object.keys(catalog) as MessageKey[]).flatMap((key) => {
      const names = [...catalog[key].matchAll(/\{(\w+)[,}]/g)].map((m) => m[1]!);
      return [1, 2].flatMap((n) =>
        wordsOf(tr.t(key, Object.fromEntries(names.map((name) => [name, n])))),
      );
    }),
  );
}
const germanWords = saidIn('de');
/** Words only English says, from the catalogs themselves: a string left out shows up here. */
const englishOnly = new Set([...saidIn('en')].filter((w) => w.length >= 3 && !germanWords.has(w)));
/**
 * User data of the sandbox's demo, in English on purpose: workspace, file and folder names, its
 * people, comments.
 */
const userData =
  /^(q3|planning|reports?|archive|readme|txt|budget|notes?|ann|lee|demo|example|com|sandbox)$/;

/**
 * User data, taken out before the page is read: names of files and folders, comments, and in an
 * event's line the people, names and texts it quotes (`.user-data`): its words are checked.
 */
const USER_DATA = '.object-name, .user-data, .comment-body, .name-cell .name, .path';

/** What the page says: its text (every text node), and its elements' names, hints, placeholders. */
async function pageWords(): Promise<string[]> {
  const text = String(
    await page.evaluate(`(() => {
      const clone = document.body.cloneNode(true);
      const data = [];
      for (const el of clone.querySelectorAll(${JSON.stringify(USER_DATA)})) {
        data.push(el.textContent.trim());
        el.remove();
      }
      const parts = [];
      const walker = document.createTreeWalker(clone, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) parts.push(walker.currentNode.nodeValue);
      for (const el of clone.querySelectorAll('[aria-label],[title],[placeholder],[alt]'))
        for (const a of ['aria-label', 'title', 'placeholder', 'alt'])
          if (el.getAttribute(a)) parts.push(el.getAttribute(a));
      // A name in a label ("Ordner Reports öffnen") is the user's too.
      let said = parts.join(' ');
      for (const d of data.filter(Boolean).sort((a, b) => b.length - a.length))
        said = said.split(d).join(' ');
      return said;
    })()`),
  );
  return wordsOf(text);
}

/** Screenshots german-<view>-*, axe clean in both schemes (its failure names the view alone). */
const screenshots = (view: string) =>
  shots(page, `german-${view}`, { what: (scheme) => `${view} (${scheme})` });

async function expectNoEnglish(view: string) {
  const left = [
    ...new Set((await pageWords()).filter((w) => englishOnly.has(w) && !userData.test(w))),
  ];
  expect(left, `${view}: English words left`).toEqual([]);
  await expectAccessible(page, view);
  expect(await page.evaluate('document.documentElement.lang')).toBe('de');
}

beforeAll(async () => {
  session = await openSession({ server: 'sandbox', locale: 'de-DE', timeout: 20_000 });
  ({ bridge, page } = session);
}, 180_000);

afterAll(() => session?.close());

describe.sequential('the window in German', { timeout: 120_000 }, () => {
  screenshotOnFailure(() => page, 'german');

  it('the word list is real: it knows English words of every part of the window', () => {
    for (const w of ['browse', 'settings', 'syncing', 'folder', 'comments', 'left', 'items'])
      expect(englishOnly.has(w), w).toBe(true);
  });

  it('Status: the card and the engine’s words are German once the demo is up to date', async () => {
    await shown(page.getByText('Angemeldet als Ann Lee', { exact: false }));
    await shown(page.getByRole('status').filter({ hasText: 'Aktuell' }), 90_000);
    await expectNoEnglish('status');
    await screenshots('status');
  });

  it('a problem the engine finds is said in German, with its buttons', async () => {
    // A name the service cannot take (a backslash) in the demo's folder: the engine's words.
    const card = page.getByRole('article');
    const dir = /Synchronisiert mit (\S+)/.exec(await card.innerText())?.[1];
    expect(dir).toBeTruthy();
    writeFileSync(path.join(dir!, 'Plan\\Q4.txt'), 'x');
    await shown(card.getByRole('status').filter({ hasText: '1 Problem zu prüfen' }), 90_000);
    await shown(card.getByText('Dieser Name kann nicht synchronisiert werden', { exact: false }));
    await expectNoEnglish('a problem');
    await screenshots('problem');
    await card.getByRole('button', { name: 'Ausblenden: das Problem mit Plan\\Q4.txt' }).click();
    await shown(card.getByRole('status').filter({ hasText: 'Aktuell' }));
  });

  it('Browse, a folder and the item panel', async () => {
    await nav('Durchsuchen').click();
    await shown(contents());
    await contents().getByRole('button', { name: 'Ordner Reports öffnen' }).click();
    await shown(page.getByRole('navigation', { name: 'Ordnerpfad' }).getByText('Reports'));
    await expectNoEnglish('browse');
    // The item panel of the folder, through its menu (the keyboard's way).
    await page.getByRole('navigation', { name: 'Ordnerpfad' }).getByRole('button').first().click();
    const reports = contents().getByRole('button', { name: 'Ordner Reports öffnen' });
    await reports.focus();
    await page.keyboard.press('Shift+F10');
    await shown(page.getByRole('menu', { name: 'Aktionen für Reports' }));
    await expectNoEnglish('item menu');
    await page.getByRole('menuitem', { name: 'Details öffnen' }).click();
    await shown(page.getByRole('complementary').getByRole('heading', { name: 'Reports' }));
    await shown(page.getByRole('heading', { name: 'Kommentare' }));
    await expectNoEnglish('item panel');
    await screenshots('browse');
    // A file's panel: its audit trail, the sync's own downloads brought back too, in German.
    await reports.click();
    await contents().getByRole('button', { name: 'Q3 summary.md' }).click();
    const trail = page.getByRole('list', { name: 'Protokoll' });
    await shown(trail.locator('.event-line').first());
    await page.getByRole('complementary').getByRole('button', { name: 'Zeigen' }).click();
    await shown(trail.getByText('heruntergeladen', { exact: false }).first());
    await expectNoEnglish('audit trail');
    await screenshots('audit-trail');
  });

  it('Activity, Workspaces and Settings', async () => {
    await nav('Aktivität').click();
    await shown(page.getByRole('heading', { name: 'Aktivität', level: 1 }));
    await shown(page.locator('.feed-row').first());
    await expectNoEnglish('activity');
    await screenshots('activity');
    await nav('Arbeitsbereiche').click();
    await shown(page.getByRole('heading', { name: 'Arbeitsbereiche', level: 1 }));
    await shown(page.getByRole('heading', { name: 'Neuer Arbeitsbereich' }));
    await shown(page.getByRole('button', { name: 'Umbenennen: Q3 Planning' }));
    await expectNoEnglish('workspaces');
    await screenshots('workspaces');
    await nav('Einstellungen').click();
    await shown(page.getByLabel('Benachrichtigen, wenn andere etwas ändern'));
    expect(await page.getByLabel('Sprache').inputValue()).toBe('system');
    await expectNoEnglish('settings');
    await screenshots('settings');
  });

  it('the setting switches the window to English and back, and is stored', async () => {
    await page.getByLabel('Sprache').selectOption('en');
    // At once, in the same view: the tree re-renders in the new language.
    await shown(page.getByRole('heading', { name: 'Settings', level: 1 }));
    await shown(page.getByRole('status').filter({ hasText: 'Saved' }));
    expect(await page.evaluate('document.documentElement.lang')).toBe('en');
    const stored = async () =>
      JSON.parse(await readFile(path.join(bridge.stateDir, 'settings.json'), 'utf8')) as {
        language?: string;
      };
    expect((await stored()).language).toBe('en');
    // Kept: a fresh load on this German system is English.
    await page.reload();
    const main = page.getByRole('navigation', { name: 'Main' });
    await main.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Language').selectOption('de');
    await shown(page.getByRole('heading', { name: 'Einstellungen', level: 1 }));
    expect((await stored()).language).toBe('de');
  });

  it('Add folder and the folder picker', async () => {
    await nav('Status').click();
    await page.getByRole('button', { name: 'Ordner hinzufügen' }).click();
    await shown(page.getByRole('button', { name: 'Auswählen…' }));
    await expectNoEnglish('setup');
    await page.getByRole('button', { name: 'Auswählen…' }).click();
    await shown(page.getByRole('dialog', { name: 'Ordner auswählen' }));
    await expectNoEnglish('picker');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Ordner auswählen' }).waitFor({ state: 'hidden' });
    // The backend's refusal of a folder is German too: it sends words, not only its English.
    await page.getByLabel('Ordner auf diesem Computer').fill('Q3');
    await page.getByRole('button', { name: 'Synchronisierung starten' }).click();
    await shown(
      page
        .getByRole('alert')
        .filter({ hasText: 'Wählen Sie den lokalen Ordner mit seinem vollständigen Pfad' }),
    );
    await expectNoEnglish('a folder refused');
  });

  it('Members (from Workspaces) and About', async () => {
    await nav('Arbeitsbereiche').click();
    await page.getByRole('button', { name: 'Mitglieder von Q3 Planning' }).click();
    await shown(page.getByRole('heading', { name: 'Mitglieder von Q3 Planning', level: 1 }));
    await shown(page.getByRole('heading', { name: 'Was jede Rolle darf' }));
    await shown(page.getByRole('row').filter({ hasText: 'Ann Lee' }).first());
    await expectNoEnglish('members');
    await screenshots('members');
    await nav('Über').click();
    await shown(page.getByRole('heading', { name: 'Über Workspace Sync', level: 1 }));
    await shown(page.getByRole('heading', { name: 'Synchronisierte Ordner' }));
    await expectNoEnglish('about');
    await screenshots('about');
  });

  it('Choose folders of a synced workspace', async () => {
    await nav('Status').click();
    await page.getByRole('button', { name: 'Ordnerauswahl für Q3 Planning…' }).click();
    const dialog = page.getByRole('dialog', {
      name: 'Zu synchronisierende Ordner von „Q3 Planning“',
    });
    await shown(dialog.getByRole('checkbox', { name: 'Reports' }));
    await dialog.getByRole('button', { name: 'Ordner in Reports zeigen' }).click();
    await shown(dialog.getByRole('button', { name: 'Ordner in Reports ausblenden' }));
    await expectNoEnglish('choose folders');
    await screenshots('selection');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('Sign-in after signing out', async () => {
    await nav('Status').click();
    await page.getByRole('button', { name: 'Abmelden' }).first().click();
    // Asked first, in German: the folder that stops, named (sign-out.test.ts).
    const ask = page.getByRole('dialog', { name: /abmelden\?$/ });
    await shown(ask.getByText('Dieser Ordner wird nicht mehr synchronisiert:'));
    await shown(ask.getByText('Q3 Planning', { exact: true }));
    await expectNoEnglish('sign-out');
    await screenshots('sign-out');
    await ask.getByRole('button', { name: 'Abmelden', exact: true }).click();
    await shown(page.getByRole('heading', { name: 'Bei Workspace Sync anmelden' }));
    await expectNoEnglish('sign-in');
    await screenshots('sign-in');
  });
});
