import type { AppError } from '../../shared/app-api';
import type { Words } from '../../shared/i18n';
import { ApiError, ValidationError } from '../api/errors';

// A file operation's refusal (Browse, issue 42) in the person's words: the service's 422 "has
// already been taken" is a name to choose again, its 403 the role, its 404 an item someone else
// moved or deleted meanwhile; the connection's troubles say nothing was changed.

export interface EditRefusal {
  kind: AppError['kind'];
  words: Words;
}

/** A refusal of an operation on `name` (null: not the service's, said as any other error). */
export function editRefusal(err: unknown, name: string): EditRefusal | null {
  if (!(err instanceof ApiError)) return null;
  switch (err.kind) {
    case 'validation':
      if (err instanceof ValidationError && takenName(err))
        return { kind: 'conflict', words: { key: 'edit.nameTaken', params: { name } } };
      if (err instanceof ValidationError && intoItself(err))
        return { kind: 'invalid', words: { key: 'edit.intoItself' } };
      return { kind: 'invalid', words: err.words ?? { key: 'backend.generic' } };
    case 'forbidden':
      return { kind: 'forbidden', words: { key: 'edit.roleRefused' } };
    case 'not-found':
      return { kind: 'not-found', words: { key: 'edit.gone', params: { name } } };
    case 'network':
    case 'proxy':
    case 'rate-limited':
    case 'server':
      return { kind: 'offline', words: { key: 'edit.offline' } };
    default:
      return null;
  }
}

const messages = (err: ValidationError) => Object.values(err.errors).flat().join(' ');
const takenName = (err: ValidationError) =>
  /already been taken|already exists/i.test(messages(err));
const intoItself = (err: ValidationError) =>
  /folder itself|subfolders|inside itself/i.test(messages(err));
