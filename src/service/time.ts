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

function pad(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/** ISO 8601 with a numeric offset in `zone`, second precision: `2026-11-22T04:15:03-05:00`. */
export function formatInZone(ms: number, zone: string): string {
  const offset = zoneOffsetMinutes(zone, ms);
  const local = new Date(Math.floor(ms / 1000) * 1000 + offset * 60000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
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
