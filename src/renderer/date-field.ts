// A date typed as the window's language writes it (15.03.2026, 3/15/2026): a browser's date
// input follows the browser's own locale, not the window's language setting. Pure: the locale
// is the caller's (format.ts's `formatLocale()`).

type DatePart = 'day' | 'month' | 'year';

const fields = new Map<string, Intl.DateTimeFormat>();
function field(locale: string): Intl.DateTimeFormat {
  let format = fields.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      timeZone: 'UTC',
    });
    fields.set(locale, format);
  }
  return format;
}

/** The locale's order of day, month and year, and the separator between them. */
function shape(locale: string): { order: DatePart[]; separator: string } {
  const parts = field(locale).formatToParts(Date.UTC(2026, 10, 29));
  const order = parts
    .map((p) => p.type)
    .filter((t): t is DatePart => t === 'day' || t === 'month' || t === 'year');
  const separator = parts.find((p) => p.type === 'literal')?.value ?? '/';
  return { order, separator };
}

/** yyyy-mm-dd as the locale writes a date ('' stays ''). */
export function formatDateField(locale: string, date: string): string {
  if (!date) return '';
  return field(locale).format(new Date(`${date}T00:00:00Z`));
}

/** What the field asks for: `letters` (day, month, year, e.g. "TT MM JJJJ") in the locale's order. */
export function dateFieldPattern(locale: string, letters: string): string {
  const [d = 'dd', m = 'mm', y = 'yyyy'] = letters.split(' ');
  const { order, separator } = shape(locale);
  return order.map((p) => ({ day: d, month: m, year: y })[p]).join(separator);
}

/** A date typed in the locale's order as yyyy-mm-dd; null when it is not a day of the calendar. */
export function parseDateField(locale: string, text: string): string | null {
  const numbers = text.trim().split(/\D+/).filter(Boolean);
  const { order } = shape(locale);
  if (numbers.length !== 3) return null;
  const value = { day: 0, month: 0, year: 0 };
  order.forEach((p, i) => (value[p] = Number(numbers[i])));
  if (numbers[order.indexOf('year')]!.length !== 4) return null;
  const at = new Date(Date.UTC(value.year, value.month - 1, value.day));
  if (at.getUTCMonth() !== value.month - 1 || at.getUTCDate() !== value.day) return null;
  return at.toISOString().slice(0, 10);
}
