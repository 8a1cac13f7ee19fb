import { HttpError } from './http';

export const MAX_NAME = 255;

/**
 * Repairs a folder or file name as the real service does: characters that cannot appear in a
 * name (`/`, `\`, NUL, other control characters) become `-`. Names that cannot be repaired
 * (empty, `.`, `..`, too long) are a 422.
 */
export function repairName(raw: unknown, field = 'filename'): string {
  if (typeof raw !== 'string') throw HttpError.validation(field, "can't be blank");
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  const name = raw.normalize('NFC').replace(/[/\\\u0000-\u001f\u007f]/g, '-');
  if (name.trim() === '') throw HttpError.validation(field, "can't be blank");
  if (name === '.' || name === '..') throw HttpError.validation(field, 'is invalid');
  if (name.length > MAX_NAME) {
    throw HttpError.validation(field, `is too long (maximum is ${MAX_NAME} characters)`);
  }
  return name;
}

/** The key under which folder names are unique within a parent: case does not count. */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}
