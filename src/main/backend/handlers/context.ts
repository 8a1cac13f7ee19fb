import type { z } from 'zod';
import type { EventName, EventOf, MethodName, Methods, Settings } from '../../../shared/app-api';
import type { Logger } from '../../core/logger';
import type { AccountSessions, SignedIn } from '../accounts';
import type { FolderIndex } from '../folders';
import type { Pairs } from '../pairs';

// The handler table's types and what every namespace's handlers are given. Types only: the
// backend builds the context, each file under handlers/ answers one namespace of the API.

export type Params<M extends MethodName> = z.output<(typeof Methods)[M]['params']>;
export type Result<M extends MethodName> = z.input<(typeof Methods)[M]['result']>;
export type Handler<M extends MethodName> = (params: Params<M>) => Promise<Result<M>>;

/** Every method of the API (src/shared/app-api.ts) and its handler. */
export type Handlers = { [M in MethodName]: Handler<M> };

/**
 * The methods of one namespace (`HandlersOf<'accounts'>`: `accounts.signIn`, `accounts.list`,
 * ...): a namespace's file returns exactly these, so a method added to the API and not answered
 * there, or answered with the wrong shape, fails to compile.
 */
export type HandlersOf<N extends string> = {
  [M in MethodName as M extends `${N}.${string}` ? M : never]: Handler<M>;
};

/** The demo sandbox's user (`accounts.tryDemo`). */
export interface DemoUser {
  server: string;
  email: string;
  password: string;
}

/** What the backend hands its handlers: its parts and the options it was started with. */
export interface HandlerContext {
  log: Logger;
  /** Journals and the engines' trash. */
  stateDir: string;
  /** The home folder: `~` in a pair's folder, the top of the folder picker. */
  home: string;
  sessions: AccountSessions;
  pairs: Pairs;
  /** The signed-in account a call names. */
  account: (p: { accountId: string }) => Promise<SignedIn>;
  /** What Browse taught the backend of an account's folders. */
  folderIndex: (s: SignedIn) => FolderIndex;
  /** Forgets an account's folders (signed out). */
  forgetFolders: (accountId: string) => void;
  /** The settings as last loaded or stored (read at each call: an update replaces them). */
  settings: () => Promise<Settings>;
  updateSettings: (patch: Partial<Settings>) => Promise<Settings>;
  emit: <E extends EventName>(event: E, data: EventOf<E>) => void;
  /** Shows a folder (or opens a file) in the file manager. */
  open: (file: string) => Promise<void>;
  /** Shows a file in the file manager, selected. */
  show: (file: string) => Promise<void>;
  /** Shows a page in the person's browser. */
  openUrl: (url: string) => void | Promise<void>;
  /** The browser sign-in still waiting for the person: a new one, or close, replaces it. */
  browserSignIn: { current: AbortController | null };
  /** How long "Sign in with your browser" waits for the person. */
  browserSignInTimeoutMs: number;
  demo: DemoUser | null;
  /** The server `cli ui --server` was given. */
  server: string | undefined;
  /** The desktop app (not the web bridge). */
  desktop: boolean;
  /** The app's version. */
  version: () => string;
  /** Where the logs are. */
  logsDir: string;
}
