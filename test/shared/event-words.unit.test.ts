import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDetail } from '../../src/shared/detail';
import {
  KNOWN_PREDICATES,
  compactParts,
  didOf,
  eventText,
  labelOf,
  verbOf,
} from '../../src/shared/event-words';
import { english, translator } from '../../src/shared/i18n';
import { detailMarkup, type EventInput } from '../../src/service/events';
import { summarize } from '../../src/main/platform/notify-batch';
import { trayMenu } from '../../src/main/platform/tray-menu';
import type { ActivityEvent } from '../../src/shared/app-api';

const de = translator('de');

/** Every predicate the sandbox writes, read from its source: a new one fails here until said. */
function sandboxPredicates(): string[] {
  const found = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.ts')) {
        const src = readFileSync(file, 'utf8');
        for (const m of src.matchAll(/predicate: '([^']+)'/g)) found.add(m[1]!);
        // itemEvent(sb, workspace, user, 'verb', 'predicate', …)
        for (const m of src.matchAll(/itemEvent\([^,]+,[^,]+,[^,]+,\s*'\w+',\s*'([^']+)'/g))
          found.add(m[1]!);
      }
    }
  };
  walk(path.resolve(__dirname, '../../src/service'));
  return [...found].sort();
}

const ann = { id: 1, name: 'Ann Lee', email: 'ann@example.com' } as EventInput['actor'];
const ws = { id: 4, name: 'Q3 Planning' };
const file = { kind: 'file', id: 7, name: 'summary.md' } as const;
const folder = { kind: 'folder', id: 42, name: 'Reports' } as const;

/** A sentence of the sandbox: its markup, parsed, as the window gets it. */
const said = (input: Partial<EventInput> & Pick<EventInput, 'predicate'>, tr = de) =>
  eventText(tr, parseDetail(detailMarkup({ workspace: ws, actor: ann, verb: 'update', ...input })));

/** English words of the service that a German sentence must not hold. */
const ENGLISH = /\b(the|a|on|of|to|from|as|file|folder|workspace|someone|user|member|role)\b/i;

describe('event words', () => {
  it('knows every predicate the sandbox writes', () => {
    const written = sandboxPredicates();
    expect(written.length).toBeGreaterThanOrEqual(14);
    for (const p of written) expect(verbOf(p), p).not.toBeNull();
    expect([...KNOWN_PREDICATES].sort()).toEqual(written);
  });

  it('says every predicate of the sandbox in German, the participle last', () => {
    for (const predicate of sandboxPredicates()) {
      const workspaceOnly = /invited|member|role/.test(predicate) || predicate === 'created';
      const line = said({ predicate, item: workspaceOnly ? undefined : file });
      expect(line, predicate).toMatch(/^Ann Lee hat /);
      expect(line.replace(/summary\.md|Q3 Planning|Ann Lee/g, ''), line).not.toMatch(ENGLISH);
      expect(line, predicate).not.toContain(predicate);
      expect(didOf(de, predicate), predicate).not.toBe(predicate);
      expect(didOf(english, predicate)).toBe(predicate);
    }
  });

  it('says each predicate with its object and complement as German reads', () => {
    expect(said({ predicate: 'uploaded', item: file })).toBe(
      'Ann Lee hat die Datei summary.md hochgeladen · Arbeitsbereich Q3 Planning',
    );
    expect(said({ predicate: 'renamed', item: folder, complement: 'from Drafts' })).toBe(
      'Ann Lee hat den Ordner Drafts in Reports umbenannt · Arbeitsbereich Q3 Planning',
    );
    expect(said({ predicate: 'moved', item: file, complement: 'from Drafts' })).toBe(
      'Ann Lee hat die Datei summary.md aus Drafts verschoben · Arbeitsbereich Q3 Planning',
    );
    expect(said({ predicate: 'updated the link of', item: folder })).toBe(
      'Ann Lee hat den Link zum Ordner Reports geändert · Arbeitsbereich Q3 Planning',
    );
    expect(said({ predicate: 'commented on', item: file, complement: '"Looks good"' })).toBe(
      'Ann Lee hat die Datei summary.md kommentiert: „Looks good“ · Arbeitsbereich Q3 Planning',
    );
    expect(said({ predicate: 'invited a user to', complement: 'kim@example.com as Viewer' })).toBe(
      'Ann Lee hat kim@example.com als Betrachter in den Arbeitsbereich Q3 Planning eingeladen',
    );
    expect(
      said({
        predicate: 'changed a role in',
        complement: 'kim@example.com from Viewer to Creator',
      }),
    ).toBe(
      'Ann Lee hat im Arbeitsbereich Q3 Planning eine Rolle geändert: kim@example.com: Betrachter → Ersteller',
    );
    expect(said({ predicate: 'removed a member from', complement: 'kim@example.com' })).toBe(
      'Ann Lee hat kim@example.com aus dem Arbeitsbereich Q3 Planning entfernt',
    );
    expect(said({ predicate: 'updated', complement: 'from Q2' })).toBe(
      'Ann Lee hat den Arbeitsbereich Q2 in Q3 Planning umbenannt',
    );
    expect(said({ predicate: 'viewed', item: file, actor: null })).toBe(
      'Jemand mit dem Link hat die Datei summary.md angesehen · Arbeitsbereich Q3 Planning',
    );
  });

  it('matches predicates trimmed and in any case; an unknown one is said as written', () => {
    expect(verbOf('  Uploaded ')).toBe('uploaded');
    expect(verbOf('Commented  On')).toBe('commented');
    expect(said({ predicate: 'archived', item: file, complement: 'for good' })).toBe(
      'Ann Lee – archived: Datei summary.md (for good) · Arbeitsbereich Q3 Planning',
    );
    expect(didOf(de, 'archived')).toBe('archived');
    const bare = { subject: 'Ann Lee', predicate: 'deleted', objects: [], complement: '' };
    expect(eventText(de, bare)).toBe('Ann Lee – gelöscht');
    expect(labelOf(de, { label: 'Board', kind: 'unknown' })).toBe('Board');
    expect(labelOf(de, { label: 'Folder', kind: 'unknown' })).toBe('Ordner');
  });

  it('leaves English exactly as the service wrote it', () => {
    const e = parseDetail(
      detailMarkup({
        workspace: ws,
        actor: ann,
        verb: 'update',
        predicate: 'renamed',
        item: folder,
        complement: 'from Drafts',
      }),
    );
    expect(eventText(english, e)).toBe(
      'Ann Lee renamed Reports Folder from Drafts · Q3 Planning Workspace',
    );
    expect(compactParts(english, e)).toEqual([
      { type: 'object', index: 0, labeled: true },
      { type: 'text', text: ' ' },
      { type: 'data', text: 'from Drafts' },
    ]);
    expect(
      compactParts(de, e)
        .map((p) => (p.type === 'object' ? '#' : p.text))
        .join(''),
    ).toBe('Ordner # (vorher „Drafts“)');
  });

  it('says the tray’s and the notices’ events in the language', () => {
    const event = (id: number, predicate: string): ActivityEvent => {
      const d = parseDetail(
        detailMarkup({
          workspace: ws,
          actor: ann,
          verb: 'upload',
          predicate,
          item: { ...file, id },
        }),
      );
      return { id, at: '2026-11-27T10:00:00Z', workspaceId: 4, actorId: 1, ...d };
    };
    const batch = (...events: ActivityEvent[]) =>
      events.map((e) => ({ accountId: 'a', workspaceName: 'Q3 Planning', event: e }));
    expect(summarize(batch(event(7, 'uploaded')), de)?.body).toBe(
      'Ann Lee hat die Datei summary.md hochgeladen · Arbeitsbereich Q3 Planning',
    );
    expect(summarize(batch(event(7, 'uploaded'), event(8, 'uploaded')), de)?.body).toBe(
      'Ann Lee: 2 Elemente in Q3 Planning (hochgeladen)',
    );
    expect(summarize(batch(event(7, 'uploaded')), english)?.body).toBe(
      'Ann Lee uploaded the summary.md File in the Q3 Planning Workspace',
    );
    const [, , recent] = trayMenu([], [{ accountId: 'a', event: event(7, 'deleted') }], de);
    expect(recent).toMatchObject({
      label: 'Ann Lee hat die Datei summary.md gelöscht · Arbeitsbereich …',
    });
  });
});
