import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The local path an item argument names: a `file://` URI (Nautilus's and Nemo's entries pass
 * URIs, whose percent-encoding carries a newline or a quote in a name through any splitting)
 * decoded, anything else a path, relative ones taken from `cwd`. No single file name can start
 * with `file://` (it holds slashes), so a name relative to the folder shown is never misread.
 */
export const isFileUri = (arg: string) => /^file:\/\//i.test(arg);

export function localPathOf(arg: string, cwd: string): string {
  if (isFileUri(arg)) {
    try {
      return fileURLToPath(arg);
    } catch {
      // Another host's file, an encoded slash: no local path; said "not synced" downstream.
    }
  }
  return path.resolve(cwd, arg);
}
