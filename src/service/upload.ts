import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { HttpError } from './http';

/** How far past the upload cap a declared body may go before it is refused unread. */
const MULTIPART_SLACK = 1024 * 1024;
/**
 * Streams the multipart part named `file` of `req` into `consume` (with the part's filename,
 * decoded as UTF-8), never buffering the body. Other parts are skipped. When `consume` fails
 * (413, 403...), the rest of the body is left to the server's answer (`answerAfterBody` reads and
 * discards it, so that the client can read the answer).
 */
export function receiveUpload<T>(
  req: IncomingMessage,
  maxBytes: number,
  consume: (filename: string, stream: Readable) => Promise<T>,
): Promise<T> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    return Promise.reject(
      new HttpError(415, {
        base: ['An upload must be multipart/form-data with a part named file'],
      }),
    );
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes + MULTIPART_SLACK) return Promise.reject(HttpError.tooLarge());
  return new Promise<T>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        // The raw name: characters like `\\` are repaired (as the real service does), not cut.
        preservePath: true,
        limits: { files: 10, fields: 50, fieldSize: 64 * 1024, parts: 100 },
      });
    } catch {
      reject(HttpError.badRequest('The multipart body is not valid'));
      return;
    }
    let settled = false;
    let upload: Promise<T> | null = null;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      parser.removeAllListeners('file');
      reject(err);
    };
    parser.on('file', (name, stream, info) => {
      if (upload || name !== 'file') {
        stream.resume();
        return;
      }
      upload = consume(info.filename ?? '', stream);
      upload.catch(fail);
    });
    parser.on('error', () => fail(HttpError.badRequest('The multipart body is not valid')));
    parser.on('close', () => {
      if (!upload) {
        fail(HttpError.validation('file', "can't be blank"));
        return;
      }
      upload.then(
        (value) => {
          if (settled) return;
          settled = true;
          resolve(value);
        },
        (err: unknown) => fail(err),
      );
    });
    req.on('error', (err) => fail(err));
    req.pipe(parser);
  });
}
