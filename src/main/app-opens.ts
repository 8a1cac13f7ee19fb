// What a file manager asks of the running app, each said as a notification (it has no window
// to answer in): "Copy Workspace Sync link" (`--copy-link`) and a placeholder's double-click
// (`--open`, issue 41), whose file the pair's engine downloads before main's shell opens it.
import path from 'node:path';
import { clipboard } from 'electron';
import { PLACEHOLDER_SUFFIX } from '../shared/placeholder';
import type { EngineClient } from './engine-client';
import { mainLanguage } from './platform/language';
import { showNotification } from './platform/notifications';

export async function copyLinkFor(engine: EngineClient, p: string): Promise<void> {
  const r = await engine.copyLink(p);
  if (r.ok) {
    clipboard.writeText(r.url);
    showNotification({
      title: 'Link copied',
      body: `The link to ${r.name} is on the clipboard.`,
    });
  } else {
    showNotification({ title: 'Could not copy the link', body: r.message });
  }
}

/** A placeholder opened: a notice while its file downloads, the failure in words. */
export async function openFor(engine: EngineClient, p: string): Promise<void> {
  const tr = mainLanguage();
  const base = path.basename(p);
  const name = base.endsWith(PLACEHOLDER_SUFFIX) ? base.slice(0, -PLACEHOLDER_SUFFIX.length) : base;
  showNotification({ title: tr.t('cli.files.notify.downloading', { name }), body: '' });
  const r = await engine.openFile(p);
  if (r.ok) return;
  // The host's words in the app's language where it sent them.
  const body = r.words ? tr.say(r.words) : r.message;
  showNotification({ title: tr.t('cli.files.notify.failed', { name }), body });
}
