import type { LogSink } from '../api/transport';

/**
 * Structured, leveled logging; fields are plain data and never hold secrets. It lives in the
 * core room, not in the engine: the engine, the window's backend, the CLI and the app all log,
 * and only the engine's ports name it again (a host hands the engine its logger).
 */
export interface Logger extends LogSink {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
