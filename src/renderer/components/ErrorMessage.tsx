import { AppCallError } from '../../shared/app-api';
import { currentLanguage, strings } from '../strings';

/**
 * What the backend said, as text a person can act on (AppError messages are written for them),
 * in the window's language when the backend sent its words.
 */
export function messageOf(error: unknown): string {
  if (error instanceof AppCallError)
    return error.words ? currentLanguage().say(error.words) : error.message;
  if (error instanceof Error && error.message) return error.message;
  return strings.genericError;
}

export function ErrorMessage({
  error,
  title,
  onRetry,
}: {
  error: unknown;
  title?: string;
  onRetry?: () => void;
}) {
  return (
    <div className="error" role="alert">
      {title && <strong>{title}: </strong>}
      <span>{messageOf(error)}</span>
      {onRetry && (
        <button type="button" className="link-button" onClick={onRetry}>
          {strings.retry}
        </button>
      )}
    </div>
  );
}
