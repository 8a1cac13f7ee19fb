import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultStateDir } from '../../src/main/state/state-dir';

describe('defaultStateDir', () => {
  it('prefers WORKSPACE_SYNC_STATE everywhere', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(defaultStateDir({ WORKSPACE_SYNC_STATE: '/srv/ws' }, platform, '/home/ann')).toBe(
        path.resolve('/srv/ws'),
      );
    }
  });

  it('follows XDG on Linux, ignoring a relative XDG_STATE_HOME', () => {
    expect(defaultStateDir({ XDG_STATE_HOME: '/x/state' }, 'linux', '/home/ann')).toBe(
      '/x/state/workspace-sync',
    );
    expect(defaultStateDir({}, 'linux', '/home/ann')).toBe('/home/ann/.local/state/workspace-sync');
    expect(defaultStateDir({ XDG_STATE_HOME: 'rel' }, 'linux', '/home/ann')).toBe(
      '/home/ann/.local/state/workspace-sync',
    );
  });

  it('uses Application Support on macOS and LOCALAPPDATA on Windows', () => {
    expect(defaultStateDir({}, 'darwin', '/Users/ann')).toBe(
      '/Users/ann/Library/Application Support/Workspace Sync',
    );
    expect(
      defaultStateDir(
        { LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local' },
        'win32',
        'C:\\Users\\ann',
      ),
    ).toBe('C:\\Users\\ann\\AppData\\Local\\Workspace Sync');
    expect(defaultStateDir({}, 'win32', 'C:\\Users\\ann')).toBe(
      'C:\\Users\\ann\\AppData\\Local\\Workspace Sync',
    );
  });
});
