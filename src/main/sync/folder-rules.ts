import path from 'node:path';

// Which folders may never be a sync folder, as data per platform (issue 39): a sync of /etc
// uploaded /etc and wrote the workspace into it. Each list is read with the path module of its
// own platform, so that every platform's rules are tested on any machine.

/** Why a folder is refused, before anything about the disk is looked at. */
export type FolderRefusal = 'root' | 'home' | 'system';

interface PlatformRules {
  /** Trees of the operating system: the folder itself and everything below it are refused. */
  system: readonly string[];
  /** Inside a system tree, folders below these are a person's after all (not the folder itself). */
  below: readonly string[];
  /** Inside a system tree, these folders and everything below them are a person's. */
  open: readonly string[];
  /** Whether names differ only in case name the same folder (macOS and Windows by default). */
  foldCase: boolean;
}

/**
 * Linux and the other Unix systems: the Filesystem Hierarchy Standard's trees, all but /home,
 * /mnt, /media and /tmp (where a person's files and disks are), and any top folder of the
 * person's own making (/data, /work) is left alone. Exceptions are the places inside those trees
 * that hold a person's files: /dev/shm (a tmpfs; tests and benchmarks use it), /var/tmp, the
 * removable disks udisks mounts under /run/media/<user>, and /var/home, where Fedora's atomic
 * desktops keep the home folders (/home leads there).
 */
const UNIX: PlatformRules = {
  system: [
    '/bin',
    '/boot',
    '/dev',
    '/efi',
    '/etc',
    '/lib',
    '/lib32',
    '/lib64',
    '/libx32',
    '/lost+found',
    '/opt',
    '/proc',
    '/root',
    '/run',
    '/sbin',
    '/snap',
    '/srv',
    '/sys',
    '/usr',
    '/var',
  ],
  below: ['/dev/shm', '/run/media', '/var/home', '/var/mnt'],
  open: ['/var/tmp'],
  foldCase: false,
};

/**
 * macOS: its own trees, and /etc, /var and /tmp lead into /private. The temporary folders
 * (/private/tmp, and /private/var/folders where os.tmpdir() is) stay usable.
 */
const DARWIN: PlatformRules = {
  system: [
    '/Applications',
    '/Library',
    '/System',
    '/bin',
    '/cores',
    '/dev',
    '/etc',
    '/opt',
    '/private',
    '/sbin',
    '/usr',
    '/var',
  ],
  below: ['/private/var/folders', '/var/folders'],
  open: ['/private/tmp'],
  foldCase: true,
};

/**
 * Windows: on every drive, the Windows folder, the program folders, ProgramData and the
 * folders Windows keeps for itself; a drive's root is refused as a root.
 */
const WINDOWS_TOP = [
  'Windows',
  'Program Files',
  'Program Files (x86)',
  'ProgramData',
  '$Recycle.Bin',
  'System Volume Information',
  'Recovery',
  'PerfLogs',
] as const;

/** Windows device namespaces (\\.\PhysicalDrive0, \\?\GLOBALROOT\…) name devices, not folders. */
const WIN32_DEVICE = /^[\\/]{2}[.?][\\/](?![a-z]:[\\/])/i;
/** A drive's root: C:\ (or C:/). */
const WIN32_DRIVE_ROOT = /^[a-z]:[\\/]?$/i;

/** The rules of `platform` (every platform but macOS and Windows has Unix's). */
export function rulesOf(platform: NodeJS.Platform): PlatformRules | null {
  if (platform === 'win32') return null;
  return platform === 'darwin' ? DARWIN : UNIX;
}

const pathOf = (platform: NodeJS.Platform) => (platform === 'win32' ? path.win32 : path.posix);

/** Whether `p` is `dir` or below it (both absolute and normalised for `platform`). */
export function isWithin(p: string, dir: string, platform: NodeJS.Platform): boolean {
  const sep = pathOf(platform).sep;
  const fold = platform === 'win32' || platform === 'darwin';
  const a = fold ? p.toLowerCase() : p;
  const b = fold ? dir.toLowerCase() : dir;
  return a === b || a.startsWith(b.endsWith(sep) ? b : b + sep);
}

/** Whether `p` (absolute) is in a tree of the operating system no sync folder may be in. */
export function isSystemPath(p: string, platform: NodeJS.Platform = process.platform): boolean {
  const paths = pathOf(platform);
  const at = paths.resolve(p);
  if (platform === 'win32') {
    if (WIN32_DEVICE.test(p)) return true;
    const root = paths.parse(at).root;
    if (!WIN32_DRIVE_ROOT.test(root)) return false;
    return WINDOWS_TOP.some((name) => isWithin(at, paths.join(root, name), platform));
  }
  const rules = rulesOf(platform)!;
  const inside = (dir: string) => isWithin(at, dir, platform);
  if (rules.open.some(inside)) return false;
  if (rules.below.some((dir) => inside(dir) && !isWithin(dir, at, platform))) return false;
  return rules.system.some(inside);
}

/**
 * Why `p` (absolute) cannot be a sync folder on `platform` by its place alone, or null: the top
 * of a disk, the home folder itself (syncing it would upload everything a person has), or a tree
 * of the operating system.
 */
export function refusedFolder(
  p: string,
  opts: { platform?: NodeJS.Platform; home?: string } = {},
): FolderRefusal | null {
  const platform = opts.platform ?? process.platform;
  const paths = pathOf(platform);
  const at = paths.resolve(p);
  if (platform === 'win32' ? WIN32_DRIVE_ROOT.test(at) : at === '/') return 'root';
  const home = opts.home ? paths.resolve(opts.home) : null;
  const fold = platform === 'win32' || platform === 'darwin';
  if (home && (fold ? at.toLowerCase() === home.toLowerCase() : at === home)) return 'home';
  // A folder in the person's own home is theirs, wherever the home is (/root for root, or
  // /var/lib/<name> for a service's account); a home at the top of the disk gives no such pass.
  const inHome = home !== null && paths.dirname(home) !== home && isWithin(at, home, platform);
  if (!inHome && isSystemPath(at, platform)) return 'system';
  return null;
}
