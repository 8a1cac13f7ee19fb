import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  type BridgeClient,
  expectAccessible,
  openSession,
  screenshotOnFailure,
  shots,
  shown,
  type Session,
} from './harness';

// Issue 39 in Chromium: /etc typed into Add folder was accepted (its files uploaded, the
// workspace written into it), and a folder holding files was merged into the workspace without
// a word. Against `cli ui --sandbox` (signed in, one pair) with a home folder of the test's own.

let session: Session<'home'>;
let page: Page;
let api: BridgeClient;
let home: string;

beforeAll(async () => {
  session = await openSession({
    server: 'sandbox',
    dirs: { home: 'ws-window-choice-' },
    timeout: 20_000,
    api: true,
    prepare: (_sandbox, dirs) => {
      for (const name of ['Papers', 'Unterlagen']) {
        mkdirSync(path.join(dirs.home, name, 'Old'), { recursive: true });
        writeFileSync(path.join(dirs.home, name, 'a.txt'), 'a');
        writeFileSync(path.join(dirs.home, name, 'b.txt'), 'b');
        writeFileSync(path.join(dirs.home, name, 'Old', 'c.txt'), 'c');
        // Never uploaded, so never counted.
        writeFileSync(path.join(dirs.home, name, 'draft.tmp'), 'x');
      }
      return { HOME: dirs.home };
    },
  });
  ({ page } = session);
  api = session.api!;
  home = session.dirs.home;
}, 180_000);

afterAll(() => session?.close());

const form = (title: string) => page.getByRole('form', { name: title });

describe.sequential('choosing the folder to sync', { timeout: 120_000 }, () => {
  screenshotOnFailure(() => page, 'folder-choice');

  it('refuses /etc in words, before anything is sent', async () => {
    await page.getByRole('button', { name: 'Add folder' }).click();
    const f = form('Choose what to sync');
    await shown(f);
    await f.getByLabel('Folder on this computer').fill('/etc');
    await f.getByRole('button', { name: 'Start syncing' }).click();
    const alert = f.getByRole('alert').filter({ hasText: '/etc is in a system folder' });
    await shown(alert);
    expect(await alert.textContent()).toBe(
      '/etc is in a system folder, which holds no files of yours: choose a folder in your home folder or on a data disk.',
    );
    expect(await api.call('pairs.list', {})).toHaveLength(1);
    await shots(page, 'folder-choice-system', { ready: alert });
  });

  it('asks before merging a folder holding files: how many, into which workspace', async () => {
    const f = form('Choose what to sync');
    // The demo's one workspace, synced already: a second folder of it is offered.
    const [pair] = await api.call('pairs.list', {});
    const workspace = pair!.workspaceName;
    await f.getByLabel('Folder on this computer').fill('~/Papers');
    await f.getByRole('button', { name: 'Start syncing' }).click();
    const papers = path.join(home, 'Papers');
    const ask = f.getByRole('group', {
      name: `${papers} already holds 4 items. Syncing it uploads them into “${workspace}”, next to what the workspace holds.`,
    });
    await shown(ask);
    const merge = ask.getByRole('button', { name: 'Merge' });
    // The question took Start syncing's place, and its focus.
    expect(await f.getByRole('button', { name: 'Start syncing' }).count()).toBe(0);
    await expect
      .poll(() => merge.evaluate((el) => el === el.ownerDocument.activeElement))
      .toBe(true);
    expect(await api.call('pairs.list', {})).toHaveLength(1);
    await shots(page, 'folder-choice-merge', { ready: ask });

    // Choose another folder: the picker; closing it leaves the form as it was.
    await ask.getByRole('button', { name: 'Choose another folder' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose a folder' });
    await shown(picker);
    await picker.getByRole('button', { name: 'Cancel' }).click();
    await picker.waitFor({ state: 'detached' });
    expect(await ask.count()).toBe(0);

    // Asked again, and merged.
    await f.getByRole('button', { name: 'Start syncing' }).click();
    await shown(ask);
    await ask.getByRole('button', { name: 'Merge' }).click();
    await shown(page.getByRole('article').getByText(`Synced to ${papers}`));
    expect(await api.call('pairs.list', {})).toHaveLength(2);
    expect(existsSync(path.join(papers, 'a.txt'))).toBe(true);
  });

  it('says both in German', async () => {
    await api.call('settings.update', { language: 'de' });
    await page.getByRole('button', { name: 'Ordner hinzufügen' }).click();
    const f = form('Wählen Sie, was synchronisiert wird');
    await shown(f);
    await f.getByLabel('Ordner auf diesem Computer').fill('/etc');
    await f.getByRole('button', { name: 'Synchronisierung starten' }).click();
    const alert = f.getByRole('alert').filter({ hasText: '/etc liegt in einem Systemordner' });
    await shown(alert);
    await shots(page, 'folder-choice-system-de', { ready: alert });

    const [pair] = await api.call('pairs.list', {});
    const workspace = pair!.workspaceName;
    await f.getByLabel('Ordner auf diesem Computer').fill('~/Unterlagen');
    await f.getByRole('button', { name: 'Synchronisierung starten' }).click();
    const ask = f.getByRole('group', {
      name: `${path.join(home, 'Unterlagen')} enthält bereits 4 Objekte. Beim Synchronisieren werden sie nach „${workspace}“ hochgeladen, neben das, was der Arbeitsbereich enthält.`,
    });
    await shown(ask);
    await shown(ask.getByRole('button', { name: 'Zusammenführen' }));
    await shown(ask.getByRole('button', { name: 'Anderen Ordner wählen' }));
    await expectAccessible(page, 'the merge question in German');
    await shots(page, 'folder-choice-merge-de', { ready: ask });
  });
});
