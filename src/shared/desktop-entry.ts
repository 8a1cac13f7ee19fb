// The Desktop Entry spec's quoting, for the entries the app writes (the autostart entry, the
// Dolphin service menus): an Exec value is first a key-file string, then a command line.

/**
 * A GKeyFile / Desktop Entry string value: backslash and control characters escaped, and a
 * leading space kept (`\s`), as g_key_file_get_string reads them back.
 */
export function keyFileValue(value: string): string {
  return value
    .replaceAll('\\', '\\\\')
    .replaceAll('\n', '\\n')
    .replaceAll('\t', '\\t')
    .replaceAll('\r', '\\r')
    .replace(/^ /, '\\s');
}

/**
 * One argument of an Exec key (the spec's "Exec key" rules): in double quotes, with `"`, `` ` ``,
 * `$` and `\` escaped by a backslash, and `%` doubled (`%f` in a path is no field code).
 * keyFileValue is applied to the whole line after.
 */
export const desktopExecArg = (arg: string) =>
  `"${arg.replace(/["`$\\]/g, '\\$&')}"`.replaceAll('%', '%%');

/**
 * An Exec line: `command` (the program and its first arguments), then `tail` (field codes and
 * arguments, written as they are). GLib (GDesktopAppInfo: GNOME's autostart, its launchers)
 * refuses an entry whose program path holds `%`: it looks the program up without undoing `%%`.
 * Such a program is started by `/bin/sh`, which gets the path as an argument.
 */
export function desktopExec(command: readonly string[], tail: string): string {
  const [program, ...rest] = command;
  const head = program?.includes('%')
    ? [`/bin/sh -c ${desktopExecArg('exec "$0" "$@"')}`, ...command.map(desktopExecArg)]
    : [program ?? '', ...rest].map(desktopExecArg);
  return [...head, tail].filter((part) => part !== '').join(' ');
}
