// What the desktop app's main process is started with (index.ts in the app, the tests' own).
import type { Logger } from './core/logger';
import type { EngineProcess } from './engine-process';

export interface DesktopOptions {
  argv: readonly string[];
  cwd: string;
  stateDir: string;
  /** settings.json and pairs.json, and the logs (default: the state directory, and its `logs`). */
  configDir?: string;
  logsDir?: string;
  version: string;
  verbose: boolean;
  paths: { preload: string; renderer: string; trayIcons: string };
  /** Starts the engine host (a utility process in the app; a Node child in tests). */
  forkEngine: () => EngineProcess;
  log: Logger;
  /** First-start integrations (file-manager entries); failures are logged, never fatal. */
  integrate?: () => Promise<void>;
  /** How long quitting waits for the engines to finish their step. */
  stopTimeoutMs?: number;
  /** Tests: how often others' activity is read, how much quiet ends a burst. */
  othersPollMs?: number;
  noticeQuietMs?: number;
}
