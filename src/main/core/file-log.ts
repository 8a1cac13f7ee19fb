import { mkdirSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import pino from 'pino';
import { createStream } from 'rotating-file-stream';
import { redact } from '../api/errors';
import type { Logger } from './logger';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface FileLoggerOptions {
  /** The log file; its directory is created when missing. Rotated files sit beside it. */
  file: string;
  /** Mirror every line to stderr as well. */
  verbose?: boolean;
  /** Default: 'debug' when verbose, else 'info'. */
  level?: LogLevel;
}

/** Keys whose values are never written, whatever they hold (compared without case). */
export const SECRET_KEYS = [
  'token',
  'accessToken',
  'refreshToken',
  'access_token',
  'refresh_token',
  'password',
  'authorization',
  'client_secret',
  'clientSecret',
] as const;

const CENSOR = '[redacted]';
const secretKeys = new Set(SECRET_KEYS.map((k) => k.toLowerCase()));
const MAX_DEPTH = 8;

/** pino's own key censor, as deep as its path syntax goes (one `*` per level). */
function redactPaths(): string[] {
  const out: string[] = [];
  for (const key of SECRET_KEYS) {
    for (let depth = 0; depth <= 4; depth++)
      out.push([...Array<string>(depth).fill('*'), key].join('.'));
  }
  return out;
}

/**
 * A plain-data copy of log fields: every string through `redact()` (registered secrets, bearer
 * headers), every value under a secret-looking key censored at any depth, errors reduced to
 * their name, kind and message.
 */
export function scrubFields(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') {
    return typeof value === 'function' || typeof value === 'symbol' ? undefined : value;
  }
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[too deep]';
  seen.add(value);
  try {
    if (value instanceof Error) {
      const err = value as Error & { kind?: unknown; code?: unknown; endpoint?: unknown };
      return scrubFields(
        {
          name: err.name,
          message: err.message,
          ...(err.kind !== undefined ? { kind: err.kind } : {}),
          ...(err.code !== undefined ? { code: err.code } : {}),
          ...(err.endpoint !== undefined ? { endpoint: err.endpoint } : {}),
          ...(err.stack !== undefined ? { stack: err.stack } : {}),
        },
        depth + 1,
        seen,
      );
    }
    if (value instanceof Date) return value.toISOString();
    if (Array.isArray(value)) return value.map((v) => scrubFields(v, depth + 1, seen));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = secretKeys.has(key.toLowerCase()) ? CENSOR : scrubFields(v, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

/**
 * The engine's Logger as JSON lines in a rotating file (10 MB a file, five rotated files kept:
 * `workspace-sync.log.1` … `.5`), never holding a secret.
 */
export function createFileLogger(opts: FileLoggerOptions): Logger & { close(): Promise<void> } {
  const file = path.resolve(opts.file);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const level = opts.level ?? (opts.verbose ? 'debug' : 'info');
  const stream = createStream(path.basename(file), {
    path: path.dirname(file),
    size: '10M',
    rotate: 5,
    mode: 0o600,
  });
  // A failing log file must never take the sync down; it is said once on stderr.
  let warned = false;
  stream.on('error', (err) => {
    if (warned) return;
    warned = true;
    process.stderr.write(`workspace-sync: cannot write the log file: ${redact(err.message)}\n`);
  });
  const destination = opts.verbose
    ? pino.multistream([
        { level, stream },
        { level, stream: process.stderr },
      ])
    : stream;
  const base = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Fields arrive scrubbed (errors already plain data): no serializer may add to them.
      serializers: { err: (err: unknown) => err },
      redact: { paths: redactPaths(), censor: CENSOR },
    },
    destination,
  );

  let closed = false;
  const write =
    (method: LogLevel) =>
    (message: string, fields?: Record<string, unknown>): void => {
      // Below the level nothing is written: not scrubbed either (a mirror logs every file it
      // places at debug, ~0.6 s of a 100k mirror's main thread spent scrubbing lines never written).
      if (closed || !base.isLevelEnabled(method)) return;
      const scrubbed = fields ? (scrubFields(fields) as Record<string, unknown>) : {};
      base[method](scrubbed, redact(message));
    };

  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    async close() {
      if (closed) return;
      closed = true;
      base.flush();
      if (stream.destroyed || stream.writableFinished) return;
      const finished = once(stream, 'finish').catch(() => undefined);
      stream.end();
      await finished;
    },
  };
}
