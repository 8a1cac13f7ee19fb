import { DateTime } from 'luxon';

// Responses carry times in the requesting user's zone with a numeric offset, to the second.
// Formatting runs for every item of every listing, so the zone's offset is cached per
// quarter hour (every zone's transitions fall on quarter hours) instead of asking Intl each time.

const QUARTER_HOUR = 15 * 60 * 1000;
const offsetCache = new Map<string, Map<number, number>>();
const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = partsFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormatters.set(zone, f);
  }
  return f;
}

/** The zone's offset from UTC in minutes at instant `ms`. */
export function zoneOffsetMinutes(zone: string, ms: number): number {
  const bucket = Math.floor(ms / QUARTER_HOUR);
  const last = lastBucket.get(zone);
  if (last && last.bucket === bucket) return last.offset;
  const offset = offsetForBucket(zone, bucket);
  lastBucket.set(zone, { bucket, offset });
  return offset;
}

const lastBucket = new Map<string, { bucket: number; offset: number }>();

function offsetForBucket(zone: string, bucket: number): number {
  let perZone = offsetCache.get(zone);
  if (!perZone) {
    perZone = new Map();
    offsetCache.set(zone, perZone);
  }
  const cached = perZone.get(bucket);
  if (cached !== undefined) return cached;
  const at = bucket * QUARTER_HOUR;
  const parts: Record<string, number> = {};
  for (const p of formatterFor(zone).formatToParts(new Date(at))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const asUtc = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
  const offset = Math.round((asUtc - at) / 60000);
  if (perZone.size > 10_000) perZone.clear();
  perZone.set(bucket, offset);
  return offset;
}

const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => (i < 10 ? '0' : '') + i);

function pad(n: number): string {
  return TWO_DIGITS[n] ?? String(n);
}

/** Days since 1970-01-01 to [year, month, day] (Howard Hinnant's civil_from_days). */
function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

/** ISO 8601 with a numeric offset in `zone`, second precision: `2026-11-22T04:15:03-05:00`. */
export function formatInZone(ms: number, zone: string): string {
  const offset = zoneOffsetMinutes(zone, ms);
  const local = Math.floor(ms / 1000) + offset * 60;
  const days = Math.floor(local / 86400);
  const secs = local - days * 86400;
  const [y, mo, d] = civilFromDays(days);
  const h = Math.floor(secs / 3600);
  const mi = Math.floor((secs % 3600) / 60);
  const se = secs % 60;
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const year = y >= 0 && y <= 9999 ? String(y).padStart(4, '0') : String(y);
  return `${year}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(se)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

export function isValidZone(zone: string): boolean {
  return DateTime.local().setZone(zone).isValid;
}

const ZONELESS_FORMATS = [
  'EEE, d MMM yyyy HH:mm:ss',
  'EEE, d MMM yyyy HH:mm',
  'd MMM yyyy HH:mm:ss',
  'd MMM yyyy HH:mm',
];

/**
 * Reads a time sent by a client: RFC 2822 (with a zone, or without one, then read in the
 * user's zone: the seed's rule), or, liberally, ISO 8601. Returns epoch ms or null.
 */
export function parseClientTime(text: string, userZone: string): number | null {
  const s = text.trim().replace(/\s+/g, ' ');
  if (s === '') return null;
  const rfc = DateTime.fromRFC2822(s, { setZone: true });
  if (rfc.isValid) return rfc.toMillis();
  for (const fmt of ZONELESS_FORMATS) {
    const d = DateTime.fromFormat(s, fmt, { zone: userZone, locale: 'en-US' });
    if (d.isValid) return d.toMillis();
  }
  const iso = DateTime.fromISO(s, { zone: userZone });
  return iso.isValid ? iso.toMillis() : null;
}
