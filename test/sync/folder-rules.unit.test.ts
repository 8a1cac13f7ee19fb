import { describe, expect, it } from 'vitest';
import { isSystemPath, refusedFolder } from '../../src/main/sync/folder-rules';

// Which folders may never be a sync folder, per platform, read with that platform's path
// module (issue 39: /etc was accepted, its files uploaded, the workspace written into it).

describe('refusedFolder on Linux', () => {
  const linux = (p: string, home = '/home/ada') => refusedFolder(p, { platform: 'linux', home });

  it('refuses the root, the home folder itself and the FHS trees', () => {
    expect(linux('/')).toBe('root');
    expect(linux('/home/ada')).toBe('home');
    expect(linux('/home/ada/')).toBe('home');
    for (const dir of [
      '/etc',
      '/etc/ssh',
      '/usr',
      '/usr/local/share',
      '/bin',
      '/sbin',
      '/lib',
      '/lib64',
      '/lib32',
      '/boot',
      '/var',
      '/var/lib/app',
      '/opt',
      '/srv/www',
      '/root',
      '/run',
      '/snap',
      '/proc/self',
      '/sys',
      '/dev',
      '/dev/null/Q3',
    ])
      expect(linux(dir), dir).toBe('system');
  });

  it('leaves /home, /mnt, /media, /tmp, /dev/shm and top folders of a person alone', () => {
    for (const dir of [
      '/home/ada/Workspace Sync/Q3',
      '/home/bob/shared',
      '/home',
      '/mnt/data',
      '/media/ada/USB',
      '/tmp',
      '/tmp/ws-cli-x',
      '/dev/shm/bench',
      '/var/tmp/x',
      '/run/media/ada/USB',
      '/var/home/ada/Sync',
      '/data/Q3',
      '/etcetera',
      '/usrdata',
    ])
      expect(linux(dir), dir).toBeNull();
    // Inside those exceptions, not the folders themselves.
    expect(linux('/dev/shm')).toBe('system');
    expect(linux('/run/media')).toBe('system');
  });

  it("lets a person sync inside their own home wherever it is (root's is /root)", () => {
    expect(linux('/root/Sync', '/root')).toBeNull();
    expect(linux('/root', '/root')).toBe('home');
    expect(linux('/root/Sync', '/home/ada')).toBe('system');
    // A home at the top of the disk passes nothing.
    expect(linux('/etc', '/')).toBe('system');
  });
});

describe('refusedFolder on macOS', () => {
  const mac = (p: string) => refusedFolder(p, { platform: 'darwin', home: '/Users/ada' });

  it("refuses the root, the home folder and the system's trees, in any case", () => {
    expect(mac('/')).toBe('root');
    expect(mac('/Users/ada')).toBe('home');
    expect(mac('/users/ADA')).toBe('home');
    for (const dir of [
      '/System',
      '/System/Library',
      '/Library/Preferences',
      '/Applications',
      '/applications/Foo.app',
      '/usr',
      '/bin',
      '/private',
      '/private/etc',
      '/etc',
      '/var/db',
    ])
      expect(mac(dir), dir).toBe('system');
  });

  it('leaves the home, other disks and the temporary folders alone', () => {
    for (const dir of [
      '/Users/ada/Documents/Q3',
      '/Volumes/USB/Q3',
      '/private/tmp/x',
      '/private/tmp',
      '/private/var/folders/zz/T/ws-cli-x',
      '/var/folders/zz/T/x',
    ])
      expect(mac(dir), dir).toBeNull();
  });
});

describe('refusedFolder on Windows', () => {
  const win = (p: string) => refusedFolder(p, { platform: 'win32', home: 'C:\\Users\\Ada' });

  it("refuses a drive's root, the home folder, Windows and the program folders", () => {
    expect(win('C:\\')).toBe('root');
    expect(win('d:\\')).toBe('root');
    expect(win('C:/')).toBe('root');
    expect(win('C:\\Users\\Ada')).toBe('home');
    expect(win('c:\\users\\ada')).toBe('home');
    for (const dir of [
      'C:\\Windows',
      'C:\\WINDOWS\\System32',
      'C:\\Program Files',
      'C:\\Program Files\\App',
      'C:\\Program Files (x86)\\App',
      'C:\\ProgramData',
      'C:\\ProgramData\\App',
      'D:\\$Recycle.Bin',
      '\\\\.\\PhysicalDrive0',
      '\\\\?\\GLOBALROOT\\Device',
    ])
      expect(win(dir), dir).toBe('system');
  });

  it('leaves folders of a person and other disks alone', () => {
    for (const dir of [
      'C:\\Users\\Ada\\Documents\\Q3',
      'C:\\Users\\Ada\\AppData\\Local\\Temp\\x',
      'D:\\Data',
      'C:\\Program Filesystem',
      'C:\\WindowsData',
      '\\\\server\\share\\Q3',
      '\\\\?\\C:\\Users\\Ada\\Q3',
    ])
      expect(win(dir), dir).toBeNull();
  });
});

describe('isSystemPath', () => {
  it('answers for each platform without running there', () => {
    expect(isSystemPath('/etc', 'linux')).toBe(true);
    expect(isSystemPath('/etc', 'freebsd')).toBe(true);
    expect(isSystemPath('/Users/ada', 'darwin')).toBe(false);
    expect(isSystemPath('C:\\Windows', 'win32')).toBe(true);
    expect(isSystemPath('/etc', 'win32')).toBe(false);
  });
});
