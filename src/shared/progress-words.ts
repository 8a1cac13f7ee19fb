/**
 * A pass's progress in words for people: the step being done, the speed and the time left. One
 * place for the CLI, the tray and the window (which passes its own number format), so that all
 * three say the same thing.
 */
import type { SyncOperation, SyncRate, SyncStatus } from './sync-status';

/** Formats a whole number for people: "2,000". */
export type CountFormat = (n: number) => string;

const enCount: CountFormat = (n) => n.toLocaleString('en-US');

/** The last part of a '/'-separated path: the name people recognise. */
const nameOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/**
 * The current step as a sentence: "Downloading report.pdf", "Creating Folder 19 on the service",
 * "Downloading 2,000 files in one archive". An operation this function does not know (from a
 * newer engine) is still said, as its op and name.
 */
export function stepWords(op: SyncOperation, count: CountFormat = enCount): string {
  const name = nameOf(op.path);
  if (op.op === 'archive') {
    const files = op.files ?? 0;
    const what = files === 1 ? '1 file' : `${count(files)} files`;
    return name
      ? `Downloading ${what} of ${name} in one archive`
      : `Downloading ${what} in one archive`;
  }
  const up = op.side === 'up';
  switch (op.op) {
    case 'download':
      return `Downloading ${name}`;
    case 'mkdir':
      return `Creating the folder ${name}`;
    case 'move':
      return up ? `Moving ${name} on the service` : `Moving ${name} here`;
    case 'trash':
      return `Moving ${name} to the trash`;
    case 'upload':
      return `Uploading ${name}`;
    case 'create folder':
      return `Creating ${name} on the service`;
    case 'rename':
      return `Renaming ${name} on the service`;
    case 'delete':
      return `Deleting ${name} on the service`;
    default:
      return name ? `${op.op} ${name}` : op.op;
  }
}

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** "900 bytes", "4.1 MB", "56 MB": units of 1,000 bytes (as transfer limits and disks count). */
export function bytesWords(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  if (unit === 0) return `${Math.round(value)} ${value === 1 ? 'byte' : 'bytes'}`;
  const digits = value < 10 ? 1 : 0;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

/** "about 20 s", "about 3 min", "about 2 h 5 min": rounded, as an estimate deserves. */
export function durationWords(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return `about ${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `about ${min} min`;
  const h = Math.floor(min / 60);
  const rest = min % 60;
  return rest === 0 ? `about ${h} h` : `about ${h} h ${rest} min`;
}

/** "3.1 MB/s, about 20 s left", "3.1 MB/s"; '' when nothing is moving. */
export function rateWords(rate: SyncRate | null | undefined): string {
  if (!rate) return '';
  const parts: string[] = [];
  if (rate.bytesPerSecond > 0) parts.push(`${bytesWords(rate.bytesPerSecond)}/s`);
  if (rate.secondsLeft !== null) parts.push(`${durationWords(rate.secondsLeft)} left`);
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
  count: CountFormat = enCount,
): string {
  const { done, total } = status.items;
  const items = `${count(done)} of ${count(total)} ${total === 1 ? 'item' : 'items'}`;
  const rate = rateWords(status.rate);
  return rate ? `${items} — ${rate}` : items;
}
