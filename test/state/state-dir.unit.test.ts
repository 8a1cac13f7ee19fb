import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultStateDir, placesOf } from '../../src/main/state/state-dir';

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

describe('placesOf', () => {
  it('keeps everything in a state directory that is given (--state or WORKSPACE_SYNC_STATE)', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(placesOf('/srv/ws', {}, platform, '/home/ann')).toEqual({
        state: path.resolve('/srv/ws'),
        config: path.resolve('/srv/ws'),
        logs: path.join(path.resolve('/srv/ws'), 'logs'),
      });
      expect(
        placesOf(undefined, { WORKSPACE_SYNC_STATE: '/srv/ws' }, platform, '/home/ann').config,
      ).toBe(path.resolve('/srv/ws'));
    }
  });

  it("uses the OS's places otherwise", () => {
    expect(placesOf(undefined, {}, 'linux', '/home/ann')).toEqual({
      state: '/home/ann/.local/state/workspace-sync',
      config: '/home/ann/.config/workspace-sync',
      logs: '/home/ann/.local/state/workspace-sync/logs',
    });
    expect(
      placesOf(
        undefined,
        { XDG_CONFIG_HOME: '/x/config', XDG_STATE_HOME: '/x/state' },
        'linux',
        '/h',
      ),
    ).toEqual({
      state: '/x/state/workspace-sync',
      config: '/x/config/workspace-sync',
      logs: '/x/state/workspace-sync/logs',
    });
    expect(placesOf(undefined, { XDG_CONFIG_HOME: 'rel' }, 'linux', '/h').config).toBe(
      '/h/.config/workspace-sync',
    );
    expect(placesOf(undefined, {}, 'darwin', '/Users/ann')).toEqual({
      state: '/Users/ann/Library/Application Support/Workspace Sync',
      config: '/Users/ann/Library/Application Support/Workspace Sync',
      logs: '/Users/ann/Library/Logs/Workspace Sync',
    });
    expect(
      placesOf(
        undefined,
        {
          LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local',
          APPDATA: 'C:\\Users\\ann\\AppData\\Roaming',
        },
        'win32',
        'C:\\Users\\ann',
      ),
    ).toEqual({
      state: 'C:\\Users\\ann\\AppData\\Local\\Workspace Sync',
      config: 'C:\\Users\\ann\\AppData\\Roaming\\Workspace Sync',
      logs: 'C:\\Users\\ann\\AppData\\Local\\Workspace Sync\\Logs',
    });
  });
});
