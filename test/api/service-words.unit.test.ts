import { describe, expect, it } from 'vitest';
import {
  ForbiddenError,
  InsecureConnectionError,
  NetworkError,
  NotAuthenticatedError,
  NotFoundError,
  OutcomeUnknownError,
  ProtocolError,
  RateLimitedError,
  ServerError,
  ValidationError,
  registerSecret,
  forgetSecret,
  type ApiError,
} from '../../src/main/api/errors';
import { englishOf, translator, wordsOf, type Words } from '../../src/shared/i18n';

// Each error of the service client carries words (src/main/api/errors.ts): its English is as
// before, and a German reader gets German; the server's own texts stay parameters.

const de = translator('de');
/** Common English words: none may be left in a German sentence (parameters aside). */
const ENGLISH =
  /\b(the|is|are|not|and|to|it|your|you|was|service|will|be|again|check|with|this|of|or|cannot|refused|unknown|request|answer)\b/i;

const said = (err: ApiError) => {
  const words = wordsOf(err);
  expect(words, err.constructor.name).toBeDefined();
  // The English of the words is the error's message, byte for byte.
  expect(englishOf(words as Words)).toBe(err.message);
  return de.say(words!);
};

describe('the service client’s errors in German', () => {
  const cases: [ApiError, string, string][] = [
    [
      new NotAuthenticatedError('GET /workspaces', true),
      'You are signed out: sign in again to continue syncing.',
      'Sie sind abgemeldet: Melden Sie sich erneut an, um weiter zu synchronisieren.',
    ],
    [
      new NotAuthenticatedError('POST /oauth/token', false),
      'The service did not accept the sign-in.',
      'Der Dienst hat die Anmeldung nicht akzeptiert.',
    ],
    [
      new NotAuthenticatedError('POST /oauth/token', false, 'invalid_grant'),
      'The service did not accept the sign-in (invalid_grant).',
      'Der Dienst hat die Anmeldung nicht akzeptiert (invalid_grant).',
    ],
    [
      new NotAuthenticatedError('GET /oauth/authorize', false, { key: 'service.signInTooLong' }),
      'The service did not accept the sign-in (the sign-in took too long).',
      'Der Dienst hat die Anmeldung nicht akzeptiert (die Anmeldung hat zu lange gedauert).',
    ],
    [
      new ForbiddenError('POST /files', ''),
      'Not permitted: your role does not allow this.',
      'Nicht erlaubt: Ihre Rolle erlaubt dies nicht.',
    ],
    [
      new ForbiddenError('POST /files', 'Schreibgeschützt'),
      'Not permitted: Schreibgeschützt.',
      'Nicht erlaubt: Schreibgeschützt.',
    ],
    [
      new NotFoundError('GET /folders/:id'),
      'Not found (GET /folders/:id): it was deleted, or you no longer have access.',
      'Nicht gefunden (GET /folders/:id): Es wurde gelöscht, oder Sie haben keinen Zugriff mehr.',
    ],
    [
      new ValidationError('POST /files', { name: ['ist zu lang'] }),
      'The service refused the request: name ist zu lang.',
      'Der Dienst hat die Anfrage abgelehnt: name ist zu lang.',
    ],
    [
      new ValidationError('POST /files', {}),
      'The service refused the request: no reason given.',
      'Der Dienst hat die Anfrage abgelehnt: ohne Angabe eines Grundes.',
    ],
    [
      new RateLimitedError('GET /events', 1000),
      'The service is busy (rate limited): it will be tried again shortly.',
      'Der Dienst ist ausgelastet (zu viele Anfragen): Es wird in Kürze erneut versucht.',
    ],
    [
      new ServerError('GET /events', 503),
      'The service had a problem (HTTP 503); it will be tried again later.',
      'Beim Dienst ist ein Fehler aufgetreten (HTTP 503); es wird später erneut versucht.',
    ],
    [
      new NetworkError('GET /events', 'ECONNREFUSED'),
      'Cannot reach the service (ECONNREFUSED): check the connection.',
      'Der Dienst ist nicht erreichbar (ECONNREFUSED): Prüfen Sie die Verbindung.',
    ],
    [
      new OutcomeUnknownError('POST /folders', 'ECONNRESET'),
      'The connection was lost before the service answered (ECONNRESET); whether the change was made is unknown.',
      'Die Verbindung brach ab, bevor der Dienst antwortete (ECONNRESET); ob die Änderung ausgeführt wurde, ist unbekannt.',
    ],
    [
      new ProtocolError('GET /folders/:id', 'items[0]', 'is not an object'),
      'Unexpected answer from GET /folders/:id: items[0] is not an object.',
      'Unerwartete Antwort von GET /folders/:id: items[0] is not an object.',
    ],
    [
      new InsecureConnectionError('base_url'),
      'Refusing to send credentials over plain http to a host that is not this computer: use an https server URL.',
      'Anmeldedaten werden nicht über unverschlüsseltes http an einen anderen Rechner gesendet: Verwenden Sie eine https-Server-URL.',
    ],
  ];
  it.each(cases)('%s', (err, english, german) => {
    expect(err.message).toBe(english);
    expect(said(err)).toBe(german);
  });

  it('leaves no English word in German but the server’s and the contract’s own texts', () => {
    for (const [err] of cases) {
      if (err instanceof ProtocolError) continue; // its detail is the contract's, as written
      expect(said(err)).not.toMatch(ENGLISH);
    }
  });

  it('redacts a secret the server echoes back in the words too', () => {
    registerSecret('s3cr3t-token-value');
    try {
      const err = new ForbiddenError('GET /x', 'token s3cr3t-token-value is read-only');
      expect(err.message).not.toContain('s3cr3t');
      expect(said(err)).toBe('Nicht erlaubt: token [redacted] is read-only.');
    } finally {
      forgetSecret('s3cr3t-token-value');
    }
  });
});
