import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { isWords, type WireWords } from '../../shared/i18n';
import { WordedError } from '../../shared/worded-error';

// One pair, one engine, and a way in for the others. Whatever runs a pair's engine (the app's
// engine host, `cli ui`, a `sync` command, a `files` command's one pass) holds the pair's door:
// a Unix socket in the user's runtime folder, bound before the journal is opened. Binding is the
// lock: a second process that would open an engine on the same pair finds the door held and
// knocks instead (a file manager's Download now while the app runs goes to the app's engine;
// two engines on one folder would race on its disk and journal). A door left by a process that
// died answers no knock and is taken over. Nextcloud's shell integrations reach their client the
// same way (its SocketApi).

/** What a knock asks: a person's files-on-demand action on paths of the pair. */
const DoorRequest = z.object({
  v: z.literal(1),
  op: z.enum(['download', 'free', 'pin', 'unpin']),
  paths: z.array(z.string().max(4096)).min(1).max(100_000),
});
export type DoorRequest = z.infer<typeof DoorRequest>;

/** Words cross as data (key and parameters), said in the knocker's language. */
const WordsShape = z.custom<WireWords>(isWords);

/** The answer, once the action is applied and a round of the pair's engine has run after it. */
const DoorAnswer = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('done') }),
  /** Applied, but the engine cannot finish it now (paused, offline, still downloading). */
  z.object({ kind: z.literal('later'), words: WordsShape }),
  z.object({ kind: z.literal('refused'), words: WordsShape }),
  /** The holder is closing or runs only its own pass: knock again (or open the engine). */
  z.object({ kind: z.literal('again') }),
]);
export type DoorAnswer = z.infer<typeof DoorAnswer>;

/** A request line longer than this is no request of ours. */
const MAX_LINE = 8 * 1024 * 1024;
/** A knocker has this long to say what it wants. */
const REQUEST_MS = 10_000;

/**
 * The door of the pair whose journal is `journalFile`: in `$XDG_RUNTIME_DIR` (a folder only this
 * user can enter, emptied at logout), else a folder of this user's own in the temp folder. The
 * name is a hash: a socket's path is limited to 107 bytes, and a state folder may be deep.
 */
export function doorPath(journalFile: string, env: NodeJS.ProcessEnv = process.env): string {
  let file = path.resolve(journalFile);
  try {
    file = path.join(realpathSync.native(path.dirname(file)), path.basename(file));
  } catch {
    // Not made yet: its spelling is the key.
  }
  const key = createHash('sha256').update(file).digest('hex').slice(0, 32);
  return path.join(doorDir(env), `${key}.sock`);
}

function doorDir(env: NodeJS.ProcessEnv): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && path.isAbsolute(runtime)) return path.join(runtime, 'workspace-sync');
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return path.join(os.tmpdir(), `workspace-sync-${uid}`);
}

/**
 * The door's folder, made if missing, and refused unless it is a folder of this user's that no
 * one else may enter (another user could otherwise answer for the pair, or sit in its door).
 */
function ownDoorDir(door: string): void {
  const dir = path.dirname(door);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  const uid = typeof process.getuid === 'function' ? process.getuid() : st.uid;
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o077) !== 0) {
    throw new DoorError({ key: 'engine.door.unsafe', params: { dir } });
  }
}

/** The door cannot be used: a folder not this user's own, or the system's refusal. */
export class DoorError extends WordedError {
  override readonly name = 'DoorError';
}

export interface HeldDoor {
  readonly path: string;
  /** Stops answering: knocks waiting for an answer are told to knock again. */
  close(): Promise<void>;
}

export type DoorHandler = (request: DoorRequest) => Promise<DoorAnswer>;

/**
 * Takes the pair's door, answering knocks with `handler`; 'held' when a live process holds it.
 * A door left behind by a dead process (nobody answers at it) is taken over, under a lock so
 * that two processes finding it at once do not both take it.
 */
export async function holdDoor(door: string, handler: DoorHandler): Promise<HeldDoor | 'held'> {
  ownDoorDir(door);
  const server = net.createServer((socket) => serve(socket, handler, open));
  const open = new Set<net.Socket>();
  server.on('connection', (s) => {
    open.add(s);
    s.on('close', () => open.delete(s));
  });
  if (!(await listen(server, door))) {
    // Loaded only for a door left behind: not at every start of the CLI.
    const { default: lockfile } = await import('proper-lockfile');
    const release = await lockfile.lock(door, {
      realpath: false,
      stale: 10_000,
      retries: { retries: 50, minTimeout: 20, maxTimeout: 200 },
    });
    try {
      if (await answers(door)) return 'held';
      rmSync(door, { force: true });
      if (!(await listen(server, door))) return 'held';
    } finally {
      await release().catch(() => undefined);
    }
  }
  let closed = false;
  return {
    path: door,
    close: async () => {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of open) s.destroy();
      });
    },
  };
}

/** Listens at `door`; false when its name is taken (a live holder, or one left behind). */
function listen(server: net.Server, door: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE') resolve(false);
      else reject(new DoorError({ key: 'engine.door.broken', params: { door, why: err.message } }));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(true);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(door);
  });
}

/** Whether a live process answers at `door`. */
function answers(door: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(door);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

function serve(socket: net.Socket, handler: DoorHandler, open: Set<net.Socket>): void {
  socket.setTimeout(REQUEST_MS, () => socket.destroy());
  readLine(socket, (line) => {
    socket.setTimeout(0);
    let request: DoorRequest;
    try {
      request = DoorRequest.parse(JSON.parse(line));
    } catch {
      socket.destroy();
      return;
    }
    void handler(request)
      .catch((): DoorAnswer => ({ kind: 'again' }))
      .then((answer) => {
        if (open.has(socket)) socket.end(`${JSON.stringify(answer)}\n`);
      });
  });
}

/** Calls `onLine` with the first line `socket` sends (destroying it when it sends too much). */
function readLine(socket: net.Socket, onLine: (line: string) => void): void {
  let got = '';
  const onData = (chunk: Buffer) => {
    got += chunk.toString('utf8');
    const end = got.indexOf('\n');
    if (end >= 0) {
      socket.off('data', onData);
      onLine(got.slice(0, end));
    } else if (got.length > MAX_LINE) {
      socket.destroy();
    }
  };
  socket.on('data', onData);
  socket.on('error', () => socket.destroy());
}

/**
 * Asks the holder of `door` to do `request`; 'none' when no live process holds it (nobody
 * there, or one that died). The answer comes once the action is applied and a round has run,
 * which may take a download's time: the holder bounds it (it answers 'later'), and a holder that
 * goes away closes the socket, which ends the wait.
 */
export function knock(door: string, request: DoorRequest): Promise<DoorAnswer | 'none'> {
  return new Promise((resolve, reject) => {
    const s = net.connect(door);
    let connected = false;
    let got = '';
    s.once('connect', () => {
      connected = true;
      s.write(`${JSON.stringify(request)}\n`);
    });
    s.on('data', (chunk: Buffer) => {
      got += chunk.toString('utf8');
      if (got.length > MAX_LINE) s.destroy();
    });
    s.once('close', () => {
      if (!connected) return resolve('none');
      const line = got.split('\n', 1)[0] ?? '';
      try {
        resolve(DoorAnswer.parse(JSON.parse(line)));
      } catch {
        // The holder went away before it answered (it stopped, or died): ask again.
        resolve({ kind: 'again' });
      }
    });
    s.once('error', (err: NodeJS.ErrnoException) => {
      if (connected) return;
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') return resolve('none');
      reject(new DoorError({ key: 'engine.door.broken', params: { door, why: err.message } }));
    });
  });
}
