// A local file that cannot be read is that file's problem, not the pass's: the other files go up.

/** Why opening or reading a file here failed, in words; null when it is not the file's fault. */
export function unreadableReason(err: unknown): string | null {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EBUSY':
    case 'EAGAIN':
      // Windows: another program holds it open without sharing.
      return 'another program has it locked';
    case 'EISDIR':
    case 'ELOOP':
    case 'ENXIO':
      return 'it is no longer a plain file';
    case 'EIO':
      return 'the disk reported a read error';
    default:
      return null;
  }
}

/** The status line for a file that could not be read. */
export function unreadableMessage(reason: string): string {
  return `This file cannot be read (${reason}): it stays here, not uploaded, and is tried again when it changes and at each full check.`;
}
