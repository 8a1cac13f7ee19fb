import { describe, expect, it } from 'vitest';
import {
  readWalkReason,
  storedWalkReason,
  walkReasonText,
  type WalkReason,
} from '../../src/main/sync/walk-reason';

// Why a walk is due is kept in the journal as a typed value and put into English only for the
// log. Before, the English sentence itself was kept and parsed back with a regex.

/** Every reason, with the English the log said (and earlier versions stored) for it. */
const REASONS: [WalkReason, string][] = [
  [{ kind: 'first-sync' }, 'first sync'],
  [{ kind: 'scheduled' }, 'scheduled check'],
  [{ kind: 'asked' }, 'asked for'],
  [{ kind: 'feed-lost' }, 'the position in the event feed was lost'],
  [{ kind: 'disk-differs' }, 'the disk was not as recorded'],
  [{ kind: 'deletes-held' }, 'deletions on the service wait for a confirmation'],
  [{ kind: 'send-kept' }, 'what the send kept on the service comes back'],
  [{ kind: 'folder-kept' }, 'a folder removed here comes back'],
  [{ kind: 'mid-move' }, 'items left mid-move'],
  [{ kind: 'chosen-again' }, 'folders chosen again'],
  [{ kind: 'problem-retried' }, 'a problem was retried'],
  [{ kind: 'too-many-lookups' }, 'too many changes to look up one by one'],
  [{ kind: 'catch-up', changes: 1500 }, '1,500 changes on the service'],
  [{ kind: 'event-time', eventId: 7 }, 'event 7 has an unreadable time'],
  [{ kind: 'event-item', eventId: 8 }, 'event 8 names no item this client can read'],
  [{ kind: 'unplaced', item: 'file', id: 9 }, 'file 9 could not be placed'],
  [{ kind: 'unplaced', item: 'folder', id: 10 }, 'folder 10 could not be placed'],
];

describe('walk reasons', () => {
  it('read back from the journal as the value stored, with its parameters', () => {
    for (const [reason] of REASONS) {
      expect(readWalkReason(storedWalkReason(reason))).toEqual(reason);
    }
  });

  it('are said in the log in the same English as before', () => {
    for (const [reason, english] of REASONS) expect(walkReasonText(reason)).toBe(english);
  });

  it("an earlier version's English reason still reads: a walk, said as it was stored", () => {
    for (const [, english] of REASONS) {
      const read = readWalkReason(english);
      expect(read).toEqual({ kind: 'earlier', text: english });
      expect(walkReasonText(read)).toBe(english);
    }
  });

  it('a value this version does not know reads as stored, not as something else', () => {
    for (const stored of [
      '{"kind":"nope"}',
      '{"kind":"catch-up","changes":"1,500"}',
      '{"kind":"unplaced","item":"link","id":3}',
      '{"kind":"toString"}',
      '42',
      'null',
      '',
    ]) {
      expect(readWalkReason(stored)).toEqual({ kind: 'earlier', text: stored });
    }
  });
});
