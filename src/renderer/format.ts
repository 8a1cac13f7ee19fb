/** Numbers and dates in the user's locale (the browser's, or the window's language's), never hand-built. */

import { translator, type Language } from '../shared/i18n';

let locale = navigator.language;
/** The language `locale` was chosen for (null: not yet, the browser's own). */
let formatLanguage: Language | null = null;

// Intl formatters are costly to make and cheap to use: one of each, made on first use (a
// scrolled list formats dozens of rows a frame).
const byteFormats = new Map<string, Intl.NumberFormat>();
let countFormat: Intl.NumberFormat | undefined;
let dateFormat: Intl.DateTimeFormat | undefined;
let relativeFormat: Intl.RelativeTimeFormat | undefined;
let dayFormat: Intl.DateTimeFormat | undefined;
let timeFormat: Intl.DateTimeFormat | undefined;

const byteUnits = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/**
 * Formats follow the window's language: the browser's own locale when it is of that language
 * (en-GB keeps its dates), else the language's (a German window on an English system).
 */
export function setFormatLocale(lang: Language): void {
  if (formatLanguage === lang) return;
  formatLanguage = lang;
  const own = navigator.language.toLowerCase().split('-')[0] === lang;
  locale = own ? navigator.language : translator(lang).locale;
  byteFormats.clear();
  countFormat = undefined;
  dateFormat = undefined;
  relativeFormat = undefined;
  dayFormat = undefined;
  timeFormat = undefined;
}

export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < byteUnits.length - 1) {
    value /= 1000;
    unit++;
  }
  const name = byteUnits[unit]!;
  let format = byteFormats.get(name);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'unit',
      unit: name,
      unitDisplay: unit === 0 ? 'long' : 'short',
      maximumFractionDigits: unit === 0 ? 0 : 1,
    });
    byteFormats.set(name, format);
  }
  return format.format(value);
}

export function formatCount(n: number): string {
  countFormat ??= new Intl.NumberFormat(locale);
  return countFormat.format(n);
}

export function formatDate(iso: string | number): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  dateFormat ??= new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return dateFormat.format(d);
}

/** A day as a heading: "Monday, November 23, 2026" in the user's locale. */
export function formatDay(iso: string | number): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  dayFormat ??= new Intl.DateTimeFormat(locale, { dateStyle: 'full' });
  return dayFormat.format(d);
}

/** The time of day: "2:05 PM". */
export function formatTime(iso: string | number): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  timeFormat ??= new Intl.DateTimeFormat(locale, { timeStyle: 'short' });
  return timeFormat.format(d);
}

const steps: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Infinity],
];

/** "5 minutes ago", "yesterday": relative to `now`. */
export function formatRelative(iso: string | number, now = Date.now()): string {
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return String(iso);
  let value = (t - now) / 1000;
  const rtf = (relativeFormat ??= new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }));
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return rtf.format(Math.round(value), unit);
    value /= size;
  }
  return rtf.format(Math.round(value), 'year');
}

/** A yyyy-mm-dd value for <input type="date"> from an ISO instant, in local time. */
export function toDateInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The end of the chosen local day as an ISO instant (an expiry "on" a day lasts all of it). */
export function endOfDayIso(date: string): string {
  return new Date(`${date}T23:59:59`).toISOString();
}

export function startOfDayIso(date: string): string {
  return new Date(`${date}T00:00:00`).toISOString();
}

/** The locale dates and numbers are written in now (the date fields read theirs in it). */
export function formatLocale(): string {
  return locale;
}
