import { afterEach, describe, expect, it } from 'vitest';
import { Journal, type JournalItem, type OnDemandMode } from '../../src/main/journal/journal';
import { planChanges } from '../../src/main/sync/down/plan';
import { defaultProfile } from '../../src/main/sync/names';
import type { RemoteItem, RemoteView } from '../../src/main/sync/remote';

// Files on demand in the down side's planner (docs/SYNC.md): what comes as a placeholder, what
// in full, on an in-memory journal, case by case.

const ROOT = 1;
const DOCS = 2;
const T1 = '2026-01-01T10:00:00Z';
const T2 = '2026-01-01T10:00:05Z';

const file = (id: number, name: string, at = T1, parentId = DOCS): RemoteItem => ({
  id,
  kind: 'file',
  parentId,
  name,
  size: 10,
  updatedAt: at,
});
const docs: RemoteItem = {
  id: DOCS,
  kind: 'folder',
  parentId: ROOT,
  name: 'Docs',
  size: 0,
  updatedAt: T1,
};

function record(
  r: RemoteItem,
  localPath: string,
  state: JournalItem['state'],
  at: string | null,
): JournalItem {
  return {
    remoteId: r.id,
    kind: r.kind,
    remoteParentId: r.parentId,
    remoteName: r.name,
    localPath,
    localName: localPath.slice(localPath.lastIndexOf('/') + 1),
    dev: null,
    ino: null,
    size: r.kind === 'file' ? 300 : 0,
    mtimeMs: null,
    hash: null,
    remoteSize: r.kind === 'file' ? r.size : null,
    remoteUpdatedAt: at,
    state,
  };
}

interface Case {
  name: string;
  mode: OnDemandMode;
  pins?: string[];
  /** Records besides Docs: [item, state, its recorded service time]. */
  records?: [RemoteItem, JournalItem['state'], string | null][];
  items: RemoteItem[];
  placeholders: string[];
  downloads: string[];
}

const many = Array.from({ length: 40 }, (_, i) => file(100 + i, `small-${i}.txt`));

const cases: Case[] = [
  {
    name: 'online: new files are placeholders, nothing to download or archive',
    mode: 'online',
    items: [file(3, 'a.txt'), ...many],
    placeholders: ['Docs/a.txt', ...many.map((f) => `Docs/${f.name}`)],
    downloads: [],
  },
  {
    name: 'online with a pin: what is under it comes in full, the rest as placeholders',
    mode: 'online',
    pins: ['Docs/Keep'],
    records: [[{ ...docs, id: 9, parentId: DOCS, name: 'Keep' }, 'synced', T1]],
    items: [file(3, 'a.txt'), file(4, 'b.txt', T1, 9)],
    placeholders: ['Docs/a.txt'],
    downloads: ['Docs/Keep/b.txt'],
  },
  {
    name: 'full: a new version of a file kept online only updates its placeholder',
    mode: 'full',
    records: [[file(3, 'a.txt'), 'online', T1]],
    items: [file(3, 'a.txt', T2), file(4, 'new.txt')],
    placeholders: ['Docs/a.txt'],
    downloads: ['Docs/new.txt'],
  },
  {
    name: 'asked for in full (no service time kept): downloaded, though the service did not change it',
    mode: 'online',
    records: [[file(3, 'a.txt'), 'online', null]],
    items: [file(3, 'a.txt')],
    placeholders: [],
    downloads: ['Docs/a.txt'],
  },
  {
    name: 'pinned: a file kept online only comes in full',
    mode: 'online',
    pins: ['Docs'],
    records: [[file(3, 'a.txt'), 'online', T1]],
    items: [file(3, 'a.txt', T2)],
    placeholders: [],
    downloads: ['Docs/a.txt'],
  },
  {
    name: 'a file whose own name ends in .wsync always comes in full',
    mode: 'online',
    items: [file(3, 'notes.txt.wsync')],
    placeholders: [],
    downloads: ['Docs/notes.txt.wsync'],
  },
  {
    name: 'a sibling named like the placeholder: the file comes in full, beside it',
    mode: 'online',
    items: [file(3, 'a.txt'), file(4, 'a.txt.wsync'), file(5, 'b.txt')],
    placeholders: ['Docs/b.txt'],
    downloads: ['Docs/a.txt', 'Docs/a.txt.wsync'],
  },
  {
    name: 'a synced file stays in full in an online pair: its new version is downloaded',
    mode: 'online',
    records: [[file(3, 'a.txt'), 'synced', T1]],
    items: [file(3, 'a.txt', T2)],
    placeholders: [],
    downloads: ['Docs/a.txt'],
  },
];

const open: Journal[] = [];
afterEach(() => {
  for (const j of open.splice(0)) j.close();
});

describe('planChanges with files on demand', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const journal = new Journal(':memory:');
    open.push(journal);
    journal.items.upsert(record(docs, 'Docs', 'synced', T1));
    for (const [r, state, at] of c.records ?? []) {
      const parent = r.parentId === DOCS ? 'Docs' : 'Docs/Keep';
      journal.items.upsert(record(r, `${parent}/${r.name}`, state, at));
    }
    journal.onDemand.setMode(c.mode);
    for (const p of c.pins ?? []) journal.onDemand.pin(p);
    const view: RemoteView = {
      rootId: ROOT,
      complete: false,
      items: new Map(
        [docs, ...(c.records ?? []).map(([r]) => r), ...c.items].map((r) => [r.id, r]),
      ),
      listed: new Set([ROOT, DOCS]),
      gone: new Set(),
      unlisted: new Set(),
    };
    const plan = planChanges(view, journal, {
      profile: defaultProfile('linux'),
      mayDownload: true,
      retryNotPermitted: false,
      deletedHere: new Set(),
    });
    const paths = (ps: { path: string }[]) => ps.map((p) => p.path).sort();
    expect({
      placeholders: paths(plan.placeholders ?? []),
      downloads: paths(plan.downloads),
      archives: plan.archives.length,
    }).toEqual({
      placeholders: [...c.placeholders].sort(),
      downloads: [...c.downloads].sort(),
      archives: 0,
    });
  });
});
