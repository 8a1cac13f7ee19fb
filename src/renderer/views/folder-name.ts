/**
 * A workspace's name made safe as one folder name on every OS: no separators or characters
 * Windows refuses, no control characters, no trailing dots or spaces, not a device name
 * (CON, NUL, COM1…), not empty, not `.` or `..`.
 */
export function safeFolderName(name: string): string {
  // eslint-disable-next-line no-control-regex
  let safe = name.replace(/[<>:"/\\|?*\u0000-\u001f\u007f]/g, '-').trim();
  safe = safe.replace(/[. ]+$/, '');
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(safe)) safe = `${safe}_`;
  // A long name stays readable and far below any OS's limit of 255.
  if (safe.length > 100) safe = safe.slice(0, 100).trim();
  return safe === '' || /^\.+$/.test(safe) ? 'Workspace' : safe;
}
