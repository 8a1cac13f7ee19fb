// A file's type from its name: the service says no content type (conventions.md, File), so the
// extension decides the icon and the words of the item panel, as a file manager's do.

export type FileCategory =
  | 'image'
  | 'video'
  | 'audio'
  | 'archive'
  | 'spreadsheet'
  | 'presentation'
  | 'pdf'
  | 'document'
  | 'code'
  | 'text'
  | 'other'
  | 'none';

const BY_EXTENSION: Record<string, FileCategory> = {};
const add = (category: FileCategory, list: string) => {
  for (const ext of list.split(' ')) BY_EXTENSION[ext] = category;
};
add('image', 'png jpg jpeg gif webp bmp tif tiff heic heif svg ico avif raw cr2 nef psd');
add('video', 'mp4 mov avi mkv webm m4v wmv mpg mpeg');
add('audio', 'mp3 wav flac aac ogg m4a wma opus aiff');
add('archive', 'zip tar gz tgz bz2 xz 7z rar zst dmg iso');
add('spreadsheet', 'xls xlsx ods csv tsv numbers');
add('presentation', 'ppt pptx odp key');
add('pdf', 'pdf');
add('document', 'doc docx odt rtf pages md epub');
add('code', 'js ts tsx jsx json py rb go rs java c h cpp cs php sh html css xml yml yaml sql');
add('text', 'txt log ini cfg conf');

/** The extension of a name, lower case, without the dot ('' for none or a leading-dot name). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

export function categoryOf(name: string): FileCategory {
  const ext = extensionOf(name);
  if (ext === '') return 'none';
  return BY_EXTENSION[ext] ?? 'other';
}
