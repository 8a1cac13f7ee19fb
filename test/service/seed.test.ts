import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { api } from './helpers';

// The demo seed is what a person first sees: check it holds everything the issue lists, and
// that a sandbox restarted on its own --data keeps it.

let dir: string;
let sb: RunningSandbox;

type Entry = {
  folder?: { id: number; filename: string; 'hidden?': boolean };
  file?: { id: number; filename: string; size: number; thumbnail: unknown };
};

async function contents(token: string, folderId: number): Promise<Entry[]> {
  const r = await api(sb.baseUrl, 'GET', `/folders/${folderId}`, { token });
  expect(r.status).toBe(200);
  return r.json.items as Entry[];
}

function named(entries: Entry[], name: string) {
  const e = entries.find((x) => (x.folder ?? x.file)!.filename === name);
  if (!e)
    throw new Error(
      `no ${name} among ${entries.map((x) => (x.folder ?? x.file)!.filename).join(', ')}`,
    );
  return e;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'seed-test-'));
  sb = await startSandbox({ seed: 'demo', dataDir: dir });
});

afterAll(async () => {
  await sb?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the demo seed', () => {
  it('has one user per role, in different time zones, none of them UTC', () => {
    expect(sb.users.map((u) => u.role)).toEqual([
      'Administrator',
      'Moderator',
      'Collaborator',
      'Creator',
      'Downloader',
      'Viewer',
    ]);
    const zones = sb.users.map((u) => u.time_zone);
    expect(new Set(zones).size).toBe(zones.length);
    for (const z of zones) expect(z).not.toMatch(/^(UTC|Etc\/UTC|GMT)$/);
  });

  it('holds nested and empty folders, Unicode names, files of several kinds and sizes', async () => {
    const token = sb.users[0]!.token;
    const ws = await api(sb.baseUrl, 'GET', `/workspaces/${sb.workspaceId}`, { token });
    const root = await contents(token, ws.json.workspace.root_folder_id);
    for (const name of [
      'Reports',
      'Archive',
      'Design Assets',
      'Café Meetings',
      'Budgets & Forecasts',
      'Team Photos 📷',
      'README.txt',
    ]) {
      named(root, name);
    }
    expect(await contents(token, named(root, 'Archive').folder!.id)).toEqual([]);
    expect(named(root, 'Internal').folder!['hidden?']).toBe(true);
    expect(named(root, 'Reports').folder!['hidden?']).toBe(false);
    const reports = await contents(token, named(root, 'Reports').folder!.id);
    expect(named(reports, 'Drafts').folder).toBeDefined(); // renamed from "Drafts (old)"
    const year = await contents(token, named(reports, '2026').folder!.id);
    expect(named(year, 'revenue.csv').file!.size).toBeGreaterThan(1000);
    const design = await contents(token, named(root, 'Design Assets').folder!.id);
    expect(named(design, 'logo.png').file!.thumbnail).toMatchObject({ width: 64, height: 64 });
    expect(named(design, 'brand video (draft).bin').file!.size).toBeGreaterThan(1_000_000);
    named(await contents(token, named(design, 'Icons 🎨').folder!.id), 'star.svg');
    named(await contents(token, named(root, 'Café Meetings').folder!.id), 'notes — résumé.txt');
    const summary = named(reports, 'Q3 summary.md').file!;
    const body = await api(sb.baseUrl, 'GET', `/download/${summary.id}`, { token });
    expect(body.text).toContain('Hiring plan approved'); // the second version
  });

  it('has comments, a shared link and a history of every kind of event', async () => {
    const token = sb.users[0]!.token;
    const ws = await api(sb.baseUrl, 'GET', `/workspaces/${sb.workspaceId}`, { token });
    const reports = named(
      await contents(token, ws.json.workspace.root_folder_id),
      'Reports',
    ).folder!;
    const comments = await api(sb.baseUrl, 'GET', `/folders/${reports.id}/comments`, { token });
    expect(comments.json.total_entries).toBe(2);
    const link = await api(sb.baseUrl, 'GET', `/folders/${reports.id}/link`, { token });
    expect(link.json.content_item_link.token_accessible).toBe(true);
    const shared = await api(
      sb.baseUrl.replace(/\/$/, ''),
      'GET',
      link.json.content_item_link.link,
    );
    expect(shared.status).toBe(200);
    expect(shared.text).toContain('Q3 summary.md');
    const verbs = new Set<string>();
    let offset = 0;
    for (;;) {
      const page = await api(sb.baseUrl, 'GET', `/activity?offset=${offset}`, { token });
      for (const item of page.json.items as { event: { detail: string } }[]) {
        verbs.add(/<predicate>([^<]*)<\/predicate>/.exec(item.event.detail)![1]!);
      }
      offset += 30;
      if (offset >= page.json.total_entries) break;
    }
    for (const p of ['created', 'uploaded', 'renamed', 'deleted', 'viewed'])
      expect(verbs).toContain(p);
    expect([...verbs].some((v) => v.startsWith('invited'))).toBe(true);
  });

  it('keeps its data when restarted on the same --data, with fresh tokens', async () => {
    const before = await api(sb.baseUrl, 'GET', `/workspaces/${sb.workspaceId}`, {
      token: sb.users[0]!.token,
    });
    await sb.close();
    sb = await startSandbox({ seed: 'demo', dataDir: dir });
    const after = await api(sb.baseUrl, 'GET', `/workspaces/${sb.workspaceId}`, {
      token: sb.users[0]!.token,
    });
    expect(after.status).toBe(200);
    expect(after.json.workspace.root_folder_id).toBe(before.json.workspace.root_folder_id);
    expect(sb.users).toHaveLength(6);
    const list = await api(sb.baseUrl, 'GET', '/workspaces', { token: sb.users[0]!.token });
    expect(list.json.total_entries).toBe(1); // not seeded twice
  });
});
