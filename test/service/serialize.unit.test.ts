import { describe, expect, it } from 'vitest';
import type { ItemRow } from '../../src/service/db';
import { itemJson, serializeItem } from '../../src/service/model';
import { detailMarkup } from '../../src/service/events';
import type { User } from '../../src/service/context';

// Listings build their JSON as text for speed; it must be exactly what the object
// serializer produces, for every kind of item and any name.

const user = { id: 1, time_zone: 'Asia/Kolkata' } as User;

function item(over: Partial<ItemRow>): ItemRow {
  return {
    id: 42,
    kind: 'file',
    workspace_id: 7,
    parent_id: 3,
    filename: 'report.pdf',
    name_key: 'report.pdf',
    user_id: 5,
    hidden: 0,
    size: 1234,
    blob: null,
    width: null,
    height: null,
    created_at: Date.UTC(2026, 2, 29, 0, 30, 15, 999),
    updated_at: Date.UTC(2026, 9, 25, 1, 0, 0),
    ...over,
  };
}

describe('itemJson', () => {
  const cases: [string, ItemRow][] = [
    ['a file without a thumbnail', item({})],
    ['a file with a thumbnail', item({ width: 640, height: 480 })],
    ['a folder', item({ kind: 'folder', filename: 'Reports' })],
    ['a hidden folder with no creator', item({ kind: 'folder', hidden: 1, user_id: null })],
    [
      'hostile and Unicode names',
      item({ filename: '"quoted" \\ <img src=x onerror=alert(1)> 📁\u2028é' }),
    ],
  ];
  for (const [name, row] of cases) {
    it(`equals JSON.stringify(serializeItem(...)) for ${name}`, () => {
      for (const ancestors of [[], [1], [1, 2, 3]]) {
        for (const zone of [
          'Asia/Kolkata',
          'America/St_Johns',
          'Pacific/Chatham',
          'Europe/Berlin',
        ]) {
          const u = { ...user, time_zone: zone };
          expect(itemJson(row, u, JSON.stringify(ancestors))).toBe(
            JSON.stringify(serializeItem(row, u, ancestors)),
          );
        }
      }
    });
  }
});

describe('detailMarkup', () => {
  it('keeps names exactly, runs of spaces included, and escapes them', () => {
    const markup = detailMarkup({
      workspace: { id: 4, name: 'Q3  plan' },
      actor: { ...user, name: 'Ann  Lee' },
      verb: 'create',
      predicate: 'created',
      item: { kind: 'folder', id: 9, name: '  two  spaces <b> ' },
    });
    expect(markup).toBe(
      '<subject>Ann  Lee</subject> <predicate>created</predicate> the ' +
        '<object><a href="/workspaces/4/folders/9">  two  spaces &lt;b&gt; </a> Folder</object> ' +
        'in the <object><a href="/workspaces/4">Q3  plan</a> Workspace</object>',
    );
  });
});
