import type { Upload } from './use-edit';

// What a drop from the computer holds (issue 42): the browser gives a dropped folder as an entry
// to read, not as its files.

/** The files below dropped entries, each with its folders; an empty folder as itself. */
export async function droppedTree(
  entries: FileSystemEntry[],
  dirs: string[] = [],
): Promise<Upload[]> {
  const found: Upload[] = [];
  for (const entry of entries) {
    if (entry.isFile) {
      const file = await new Promise<File>((resolve, reject) =>
        (entry as FileSystemFileEntry).file(resolve, reject),
      );
      found.push({ file, dirs });
    } else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      const inside: FileSystemEntry[] = [];
      // readEntries gives a batch at a time, until an empty one.
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
          reader.readEntries(resolve, reject),
        );
        if (batch.length === 0) break;
        inside.push(...batch);
      }
      const below = [...dirs, entry.name];
      if (inside.length === 0) found.push({ file: null, dirs: below });
      else found.push(...(await droppedTree(inside, below)));
    }
  }
  return found;
}
