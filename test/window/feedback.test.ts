import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translator, type Language } from '../../src/shared/i18n';
import type { MessageKey } from '../../src/shared/i18n/en';
import type { SyncPair } from '../../src/shared/app-api';
import { shots, shown, openSession, type Session, screenshotOnFailure } from './harness';

// Issue 39, item 4 (feedback is true), in Chromium over `cli ui --sandbox`, in English and in
// German: Open folder, Open logs and Enter on a file in Browse say why nothing opened when the
// system's opener fails, and "Opened …" only once it opened; Download as zip reads `~` and
// refuses a missing folder in one line. The opener is a script of the test's, first on the
// bridge's PATH: it ends with 4 (xdg-open's "the action failed") while a file `fail` lies beside
// it, else notes what it was asked to open. The bridge's HOME is the test's (for `~`).

const LANGS: { lang: Language; locale: string }[] = [
  { lang: 'en', locale: 'en-US' },
  { lang: 'de', locale: 'de-DE' },
];

describe.each(LANGS)('feedback is true ($lang)', { timeout: 240_000 }, ({ lang, locale }) => {
  const tr = translator(lang);
  const t = (key: MessageKey, params?: Record<string, string | number>) => tr.t(key, params);
  let session: Session<'bin' | 'home'>;
  let page: Page;
  let pair: SyncPair;
  let failFlag: string;
  let openLog: string;

  const nav = (key: MessageKey) =>
    page.getByRole('navigation', { name: t('nav.label') }).getByRole('button', { name: t(key) });
  const opened = () =>
    existsSync(openLog) ? readFileSync(openLog, 'utf8').split('\n').filter(Boolean) : [];
  const failing = (yes: boolean) =>
    yes ? writeFileSync(failFlag, '') : rmSync(failFlag, { force: true });
  const row = (name: string) => page.getByRole('row').filter({ hasText: name });
  // Each size and scheme with the words in view (at 800×600 the panel scrolls by itself).
  const shoot = (name: string, words: Locator) =>
    shots(page, `feedback-${name}-${lang}`, {
      ready: async () => {
        await shown(words);
        await words.scrollIntoViewIfNeeded();
      },
      restore: { width: 1280, height: 800 },
    });

  beforeAll(async () => {
    session = await openSession({
      server: 'sandbox',
      locale,
      timeout: 30_000,
      api: true,
      dirs: { bin: 'ws-window-feedback-bin-', home: 'ws-window-feedback-home-' },
      prepare: (_sandbox, dirs) => {
        failFlag = path.join(dirs.bin, 'fail');
        openLog = path.join(dirs.bin, 'opened.log');
        const opener = path.join(dirs.bin, 'xdg-open');
        writeFileSync(
          opener,
          `#!/bin/sh\n[ -e ${JSON.stringify(failFlag)} ] && exit 4\n` +
            `printf '%s\\n' "$1" >> ${JSON.stringify(openLog)}\n`,
        );
        chmodSync(opener, 0o755);
        mkdirSync(path.join(dirs.home, 'Downloads'));
        return { PATH: `${dirs.bin}:${process.env.PATH ?? ''}`, HOME: dirs.home };
      },
    });
    page = session.page;
    pair = (await session.api!.call('pairs.list', {}))[0]!;
  }, 180_000);
  afterAll(() => session?.close());

  describe.sequential('in Chromium', () => {
    screenshotOnFailure(() => page, `feedback-${lang}`);

    it('Open folder says why nothing opened, and opens once the opener can', async () => {
      const card = page.getByRole('article', { name: pair.workspaceName });
      await shown(card.getByRole('status').filter({ hasText: t('status.state.idle') }), 120_000);
      failing(true);
      await card.getByRole('button', { name: t('status.openFolder') }).click();
      const why = t('backend.openFailed', { program: 'xdg-open', code: '4', path: pair.dir });
      const alert = card.getByRole('alert').filter({ hasText: why });
      await shown(alert);
      expect(opened()).toEqual([]);
      await shoot('open-folder-failed', alert);
      failing(false);
      await card.getByRole('button', { name: t('status.openFolder') }).click();
      await expect.poll(opened).toEqual([pair.dir]);
      await alert.waitFor({ state: 'detached' });
    });

    it('Open logs says why nothing opened, and where the logs are', async () => {
      failing(true);
      await nav('nav.about').click();
      await page.getByRole('button', { name: t('about.openLogs') }).click();
      // The logs folder is the bridge's: its words up to the place, then a path.
      const [before] = t('backend.openFailedLogs', {
        program: 'xdg-open',
        code: '4',
        dir: '\u0000',
      }).split('\u0000');
      const alert = page.getByRole('alert').filter({ hasText: before! });
      await shown(alert);
      expect(await alert.textContent()).toMatch(/\/logs; /);
      await shoot('open-logs-failed', alert);
      failing(false);
    });

    it('Enter on a file in Browse says "Opened" only once it opened', async () => {
      await nav('nav.browse').click();
      await row('Reports').locator('.name').click();
      const file = row('Q3 summary.md').locator('.name');
      await shown(file);
      const abs = path.join(pair.dir, 'Reports', 'Q3 summary.md');
      const said = page.getByText(t('files.opened', { name: 'Q3 summary.md' }));
      failing(true);
      await file.focus();
      await page.keyboard.press('Enter');
      const alert = page.getByRole('alert').filter({
        hasText: t('backend.openFailed', { program: 'xdg-open', code: '4', path: abs }),
      });
      await shown(alert);
      expect(await said.count()).toBe(0);
      await shoot('browse-open-failed', alert);
      failing(false);
      await file.focus();
      await page.keyboard.press('Enter');
      await shown(said);
      expect(opened()).toContain(abs);
      expect(await alert.count()).toBe(0);
    });

    it('Download as zip: ~ is home, the zip named after the folder; a missing folder refused', async () => {
      const home = session.dirs.home;
      // Back to the workspace's top, where Reports is listed.
      await page
        .getByRole('navigation', { name: t('browse.breadcrumbs') })
        .getByRole('button')
        .first()
        .click();
      await page.getByRole('button', { name: t('browse.details', { name: 'Reports' }) }).click();
      const section = page.getByRole('complementary').getByRole('region', { name: t('item.zip') });
      const field = section.getByLabel(t('item.zipTo'));
      await field.fill('~/Downloads');
      await section.getByRole('button', { name: t('item.zipSubmit') }).click();
      const saved = path.join(home, 'Downloads', 'Reports.zip');
      const status = section
        .getByRole('status')
        .filter({ hasText: t('item.zipSaved', { path: saved }) });
      await shown(status);
      expect(readFileSync(saved).subarray(0, 2).toString()).toBe('PK');
      await shoot('zip-saved', status);

      await field.fill('~/Nowhere/');
      await section.getByRole('button', { name: t('item.zipSubmit') }).click();
      const refused = section
        .getByRole('alert')
        .filter({ hasText: t('backend.noSuchFolder', { dir: path.join(home, 'Nowhere') }) });
      await shown(refused);
      expect(existsSync(path.join(home, 'Nowhere'))).toBe(false);
      await shoot('zip-refused', refused);
    });
  });
});
