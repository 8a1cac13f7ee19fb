import type { AppError } from '../../shared/app-api';
import type { WireWords } from '../../shared/i18n';
import type { PushMessage } from '../backend/backend';
import type { OthersEvent } from '../../shared/others-activity';

/**
 * The messages between the main process and the engine host (the utility process that runs the
 * backend and its engines). Both ends are our own code, so the types are the contract; each end
 * still ignores a message it does not know rather than failing on it.
 */

/** What main tells the host once, first. */
export interface HostInit {
  stateDir: string;
  /** settings.json and pairs.json (default: the state directory). */
  configDir?: string;
  /** Where engine.log goes (default: `logs` in the state directory). */
  logsDir?: string;
  /** Whether main can encrypt with Electron's safeStorage (the keychain's fallback). */
  cipher: boolean;
  /** The app's own platform and version, for `app.info`. */
  version: string;
  /** Log to stderr too (development). */
  verbose: boolean;
  /** How often others' activity is read for notifications (default 15 s). */
  othersPollMs?: number;
  /** The OS's language (`app.getLocale()`), which the language setting System follows. */
  locale?: string;
}

export type ToHost =
  | { type: 'init'; init: HostInit }
  | { type: 'call'; id: number; method: string; params: unknown }
  | { type: 'copy-link'; id: number; path: string }
  /** A placeholder's `--open PATH`: download its file, then open it (main's shell). */
  | { type: 'open-file'; id: number; path: string }
  /** A files-on-demand menu entry's `--files ACTION PATH…`: done by the pairs' engines. */
  | {
      type: 'files-on-demand';
      id: number;
      op: 'download' | 'pin' | 'unpin' | 'free';
      paths: string[];
    }
  /** Main's answer to `open-path`: the system's reason it could not open it, or null. */
  | { type: 'open-path-reply'; id: number; error: string | null }
  | { type: 'cipher-reply'; id: number; ok: true; value: string | Uint8Array | boolean }
  | { type: 'cipher-reply'; id: number; ok: false; message: string }
  | { type: 'stop' };

export type CopyLinkResult =
  { ok: true; url: string; name: string; kind: 'file' | 'folder' } | { ok: false; message: string };

/** The file opened (its name), or why not, in the host's words. */
export type OpenFileResult =
  { ok: true; name: string } | { ok: false; message: string; words?: WireWords };

export type FromHost =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | {
      type: 'reply';
      id: number;
      result: { ok: true; result: unknown } | { ok: false; error: AppError };
    }
  | { type: 'copy-link-reply'; id: number; result: CopyLinkResult }
  | { type: 'open-file-reply'; id: number; result: OpenFileResult }
  | { type: 'files-on-demand-reply'; id: number; result: OpenFileResult }
  | { type: 'push'; push: PushMessage }
  | { type: 'others-activity'; events: OthersEvent[] }
  | { type: 'cipher'; id: number; op: 'available' }
  | { type: 'cipher'; id: number; op: 'encrypt'; plain: string }
  | { type: 'cipher'; id: number; op: 'decrypt'; data: Uint8Array }
  | { type: 'open-external'; url: string }
  | {
      type: 'open-path';
      id: number;
      path: string;
      /** Show it in its folder, selected. */
      reveal?: boolean;
    }
  | { type: 'stopped' };

/** One end of the channel: Electron's `process.parentPort`, a utility process, or a Node fork. */
export interface Port<In, Out> {
  post(message: Out): void;
  onMessage(listener: (message: In) => void): void;
}
