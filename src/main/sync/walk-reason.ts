import type { ItemKind } from '../../shared/item-kind';

/**
 * Why a full walk of the service's tree is due. A typed value, kept as such in the journal (meta
 * `walk_due`, as JSON): what reads it back switches on its kind and never parses a sentence. It
 * is put into words only where shown: the log (`walkReasonText`, English like every log line)
 * and the status (loop/remote-words.ts, through i18n keys).
 */
export type WalkReason =
  | { kind: PlainWalkKind }
  /** The feed holds more new events than a walk costs to read (`changes` of them). */
  | { kind: 'catch-up'; changes: number }
  /** An event whose time could not be read. */
  | { kind: 'event-time'; eventId: number }
  /** An event naming no item this client can read. */
  | { kind: 'event-item'; eventId: number }
  /** An item the feed named that no look placed in the tree. */
  | { kind: 'unplaced'; item: ItemKind; id: number }
  /** A reason an earlier version stored in English: a walk all the same, said as it was. */
  | { kind: 'earlier'; text: string };

/** Reasons without parameters, and how the log says them (as earlier versions stored them). */
const PLAIN = {
  'first-sync': 'first sync',
  scheduled: 'scheduled check',
  asked: 'asked for',
  'feed-lost': 'the position in the event feed was lost',
  'disk-differs': 'the disk was not as recorded',
  'deletes-held': 'deletions on the service wait for a confirmation',
  'send-kept': 'what the send kept on the service comes back',
  'folder-kept': 'a folder removed here comes back',
  'mid-move': 'items left mid-move',
  'chosen-again': 'folders chosen again',
  'problem-retried': 'a problem was retried',
  'too-many-lookups': 'too many changes to look up one by one',
} as const;

export type PlainWalkKind = keyof typeof PLAIN;

/** The reason in English, for the log. */
export function walkReasonText(reason: WalkReason): string {
  switch (reason.kind) {
    case 'catch-up':
      return `${reason.changes.toLocaleString('en-US')} changes on the service`;
    case 'event-time':
      return `event ${reason.eventId} has an unreadable time`;
    case 'event-item':
      return `event ${reason.eventId} names no item this client can read`;
    case 'unplaced':
      return `${reason.item} ${reason.id} could not be placed`;
    case 'earlier':
      return reason.text;
    default:
      return PLAIN[reason.kind];
  }
}

/** The reason as the journal keeps it. */
export const storedWalkReason = (reason: WalkReason): string => JSON.stringify(reason);

/**
 * The reason the journal kept. One stored by an earlier version (an English sentence), or one
 * this version does not know, reads as `earlier`: still a walk due, said as it was stored.
 */
export function readWalkReason(stored: string): WalkReason {
  const value = parseJson(stored);
  return isWalkReason(value) ? value : { kind: 'earlier', text: stored };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

function isWalkReason(v: unknown): v is WalkReason {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  switch (r.kind) {
    case 'catch-up':
      return isCount(r.changes);
    case 'event-time':
    case 'event-item':
      return isCount(r.eventId);
    case 'unplaced':
      return (r.item === 'file' || r.item === 'folder') && isCount(r.id);
    case 'earlier':
      return typeof r.text === 'string';
    default:
      return typeof r.kind === 'string' && Object.hasOwn(PLAIN, r.kind);
  }
}
