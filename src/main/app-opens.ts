// What a file manager asks of the running app, each said as a notification (it has no window
// to answer in): "Copy Workspace Sync link" (`--copy-link`), a placeholder's double-click
// (`--open`, issue 41), whose file the pair's engine downloads before main's shell opens it, and
// files on demand's menu entries (`--files ACTION`), done by the pairs' engines.
import path from 'node:path';
import { clipboard } from 'electron';
import { PLACEHOLDER_SUFFIX } from '../shared/placeholder';
import type { FilesOp } from './args';
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

/** A files-on-demand menu entry: a notice while it downloads, then its outcome, or why not. */
export async function onDemandFor(
  engine: EngineClient,
  files: { op: FilesOp; paths: string[] },
): Promise<void> {
  const tr = mainLanguage();
  const { op: action, paths } = files;
  const name = fileName(paths[0] ?? '');
  const others = paths.length - 1;
  if (action === 'download')
    showNotification({
      title: tr.t('cli.files.notify.downloadingMany', { name, others }),
      body: '',
    });
  const r = await engine.filesOnDemand(action, paths);
  if (r.ok) {
    showNotification({ title: tr.t('cli.files.notify.done', { action, name, others }), body: '' });
  } else {
    const body = r.words ? tr.say(r.words) : r.message;
    showNotification({ title: tr.t('cli.files.notify.actionFailed', { action, name }), body });
  }
}

/** The name a person knows: a placeholder's is its file's. */
function fileName(p: string): string {
  const base = path.basename(p);
  return base.endsWith(PLACEHOLDER_SUFFIX) ? base.slice(0, -PLACEHOLDER_SUFFIX.length) : base;
}

/** A placeholder opened: a notice while its file downloads, the failure in words. */
export async function openFor(engine: EngineClient, p: string): Promise<void> {
  const tr = mainLanguage();
  const name = fileName(p);
  showNotification({ title: tr.t('cli.files.notify.downloading', { name }), body: '' });
  const r = await engine.openFile(p);
  if (r.ok) return;
  // The host's words in the app's language where it sent them.
  const body = r.words ? tr.say(r.words) : r.message;
  showNotification({ title: tr.t('cli.files.notify.failed', { name }), body });
}
