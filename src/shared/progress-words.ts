/**
 * A pass's progress in words for people: the step being done, the speed and the time left. One
 * place for the CLI, the tray and the window, so that all three say the same thing, each in its
 * language (`tr`, English by default; numbers in the language's digits).
 */
import { english, type Translator } from './i18n';
import type { SyncOperation, SyncRate, SyncStatus } from './sync-status';

/** The last part of a '/'-separated path: the name people recognise. */
const nameOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/**
 * The current step as a sentence: "Downloading report.pdf", "Creating Folder 19 on the service",
 * "Downloading 2,000 files in one archive". An operation this function does not know (from a
 * newer engine) is still said, as its op and name.
 */
export function stepWords(op: SyncOperation, tr: Translator = english): string {
  const name = nameOf(op.path);
  if (op.op === 'archive') {
    const files = op.files ?? 0;
    return name ? tr.t('progress.archiveOf', { files, name }) : tr.t('progress.archive', { files });
  }
  const up = op.side === 'up';
  switch (op.op) {
    case 'download':
      return tr.t('progress.download', { name });
    case 'placeholder':
      return tr.t('progress.placeholder', { name });
    case 'mkdir':
      return tr.t('progress.mkdir', { name });
    case 'move':
      return tr.t(up ? 'progress.moveUp' : 'progress.moveDown', { name });
    case 'trash':
      return tr.t('progress.trash', { name });
    case 'upload':
      return tr.t('progress.upload', { name });
    case 'create folder':
      return tr.t('progress.createFolder', { name });
    case 'rename':
      return tr.t('progress.rename', { name });
    case 'delete':
      return tr.t('progress.delete', { name });
    default:
      return name ? `${op.op} ${name}` : op.op;
  }
}

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** "900 bytes", "4.1 MB", "56 MB": units of 1,000 bytes (as transfer limits and disks count). */
export function bytesWords(bytes: number, tr: Translator = english): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  if (unit === 0) return tr.t('progress.bytes', { n: Math.round(value) });
  const digits = value < 10 ? 1 : 0;
  const shown = new Intl.NumberFormat(tr.locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
  return tr.t('progress.unit', { value: shown, unit: UNITS[unit] ?? '' });
}

/** "about 20 s", "about 3 min", "about 2 h 5 min": rounded, as an estimate deserves. */
export function durationWords(seconds: number, tr: Translator = english): string {
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return tr.t('progress.seconds', { s });
  const min = Math.round(s / 60);
  if (min < 60) return tr.t('progress.minutes', { min });
  const h = Math.floor(min / 60);
  const rest = min % 60;
  return rest === 0
    ? tr.t('progress.hours', { h })
    : tr.t('progress.hoursMinutes', { h, min: rest });
}

/** "3.1 MB/s, about 20 s left", "3.1 MB/s"; '' when nothing is moving. */
export function rateWords(rate: SyncRate | null | undefined, tr: Translator = english): string {
  if (!rate) return '';
  const parts: string[] = [];
  if (rate.bytesPerSecond > 0)
    parts.push(tr.t('progress.perSecond', { bytes: bytesWords(rate.bytesPerSecond, tr) }));
  if (rate.secondsLeft !== null)
    parts.push(tr.t('progress.left', { duration: durationWords(rate.secondsLeft, tr) }));
  return parts.join(', ');
}

/**
 * How far the pass is, from 0 to 1, for a bar: items and bytes weigh half each (an archive's
 * bytes arrive before its files are placed, many small files move few bytes), items alone when
 * the pass moves no bytes.
 */
export function progressFraction(status: Pick<SyncStatus, 'items' | 'bytes'>): number {
  const part = (c: { done: number; total: number }) =>
    c.total > 0 ? Math.min(1, c.done / c.total) : 0;
  if (status.bytes.total <= 0) return part(status.items);
  return (part(status.items) + part(status.bytes)) / 2;
}

/** "1,234 of 2,000 items — 3.1 MB/s, about 20 s left": a pass's progress on one line. */
export function progressWords(
  status: Pick<SyncStatus, 'items' | 'rate'>,
  tr: Translator = english,
): string {
  const { done, total } = status.items;
  const items = tr.t('progress.items', { n: total, done: tr.count(done), total: tr.count(total) });
  const rate = rateWords(status.rate, tr);
  return rate ? tr.t('progress.withRate', { items, rate }) : items;
}
