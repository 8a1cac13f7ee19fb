import { describe, expect, it } from 'vitest';
import type { SyncPair } from '../../src/shared/app-api';
import { aboutFacts, diagnosticsText, redact } from '../../src/main/backend/diagnostics';

// Copy diagnostics: what a person pastes into a support request. Versions, states and problems;
// never a token, a password or an email; names and paths only when the person includes them.

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXBheWxvYWQ.QmFkU2lnbmF0dXJlSGVyZQ';
const SERVER = 'https://files.acme-corp.example/api/v1';

const pair: SyncPair = {
  id: 'pair-1',
  accountId: `${SERVER}#ann@acme-corp.example`,
  workspaceId: 42,
  workspaceName: 'Merger Talks',
  dir: '/home/ann/Workspace Sync/Merger Talks',
  paused: false,
  status: {
    state: 'needs-attention',
    message: 'Could not upload Layoffs 2027.xlsx',
    items: { done: 3, total: 5 },
    bytes: { done: 100, total: 200 },
    current: { op: 'upload', path: 'Board/Layoffs 2027.xlsx' },
    rate: null,
    problems: [
      {
        path: 'Board/Layoffs 2027.xlsx',
        reason: 'forbidden',
        message: `Your role may not upload Layoffs 2027.xlsx to Board (as ann@acme-corp.example, token ${TOKEN})`,
        at: Date.UTC(2026, 10, 27, 9, 0),
      },
      {
        path: 'Secret plans.txt',
        reason: 'name',
        message: 'Secret plans.txt: the service refused the name',
        at: Date.UTC(2026, 10, 27, 8, 0),
        dismissed: true,
      },
    ],
    conflicts: [
      {
        path: 'Budget.txt',
        message: 'changed on both sides',
        at: 0,
        id: 1,
        copy: 'Budget (conflict).txt',
      },
    ],
    lastSyncAt: Date.UTC(2026, 10, 27, 8, 30),
    backlog: null,
    error: { kind: 'forbidden', message: 'Your role may not upload to Merger Talks' },
    held: null,
  },
};

const about = aboutFacts('1.2.3', [pair], { ...process.versions, electron: '45.4.1' });
const servers = new Map([[pair.accountId, SERVER]]);
const names = [
  'Layoffs',
  'Board',
  'Secret plans',
  'Budget',
  'Merger Talks',
  '/home/ann',
  'acme-corp',
  'ann@',
];

describe('Copy diagnostics', () => {
  it('says versions, states and recent problems, with no name, path, email or token', () => {
    const text = diagnosticsText({ about, pairs: [pair], servers, includeNames: false });
    expect(text).toContain('Workspace Sync 1.2.3');
    expect(text).toContain(`Node ${process.versions.node}, Electron 45.4.1`);
    expect(text).toContain('Folder 1: workspace 42');
    expect(text).toContain('State: needs-attention');
    expect(text).toContain('Conflicts: 1; problems: 2 (1 dismissed)');
    expect(text).toMatch(/forbidden: Your role may not upload \[name\] to \[name\]/);
    for (const name of names) expect(text).not.toContain(name);
    expect(text).not.toContain(TOKEN.slice(0, 20));
    expect(text).toContain('[email]');
  });

  it('names files, folders and the server only when asked, and never an email or token', () => {
    const text = diagnosticsText({
      about,
      pairs: [pair],
      servers,
      includeNames: true,
      secrets: ['hunter22'],
    });
    expect(text).toContain('Folder 1: Merger Talks in /home/ann/Workspace Sync/Merger Talks');
    expect(text).toContain(SERVER);
    expect(text).toContain('[Board/Layoffs 2027.xlsx]');
    expect(text).not.toContain('ann@acme-corp.example');
    expect(text).not.toContain(TOKEN.slice(0, 20));
  });

  it('a secret the backend knows never leaves, even spelled inside a message', () => {
    expect(redact('password hunter22 and Bearer abc.def', [])).toBe(
      'password hunter22 and [secret]',
    );
    const text = diagnosticsText({
      about,
      pairs: [
        { ...pair, status: { ...pair.status, message: 'retrying with hunter22', problems: [] } },
      ],
      servers,
      includeNames: true,
      secrets: ['hunter22'],
    });
    expect(text).not.toContain('hunter22');
    expect(redact('https://bob:pw@proxy.example:8080', [])).toBe(
      'https://[secret]@proxy.example:8080',
    );
  });

  // Issue 38: "include names" kept token-shaped runs in problem paths, although they are always
  // replaced (docs/ARCHITECTURE.md).
  it('replaces token-shaped runs in names and paths even when names are included', () => {
    const key = 'k7Qp2Zx9Lm4Vb8Nw3Rt6Yh1';
    const named: SyncPair = {
      ...pair,
      dir: `/home/ann/share-${key}`,
      status: {
        ...pair.status,
        problems: [{ ...pair.status.problems[1]!, path: `Board/invite ${key}.txt` }],
      },
    };
    const text = diagnosticsText({ about, pairs: [named], servers, includeNames: true });
    expect(text).not.toContain(key);
    expect(text).toContain('[Board/invite [secret]]');
    expect(text).toContain('Folder 1: Merger Talks in /home/ann/[secret] (');
  });

  // A name joined from short words is no token, digits or not: a folder made by mkdtemp (the
  // window test's home, `ws-window-home-7gbK1W`, was replaced two runs in three) or a report's.
  it('keeps names joined from short words when names are included', () => {
    const named: SyncPair = {
      ...pair,
      dir: '/tmp/ws-window-home-7gbK1W/Workspace Sync',
      status: {
        ...pair.status,
        problems: [{ ...pair.status.problems[1]!, path: 'Board/report-2024-q3-final-v2.pdf' }],
      },
    };
    const text = diagnosticsText({ about, pairs: [named], servers, includeNames: true });
    expect(text).toContain('in /tmp/ws-window-home-7gbK1W/Workspace Sync (');
    expect(text).toContain('[Board/report-2024-q3-final-v2.pdf]');
  });
});
