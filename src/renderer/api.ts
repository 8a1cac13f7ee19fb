import {
  API_GLOBAL,
  AppCallError,
  Events,
  Methods,
  Push,
  Reply,
  type EventName,
  type EventOf,
  type MethodName,
  type ParamsOf,
  type ResultOf,
  type WorkspaceSyncApi,
} from '../shared/app-api';
import { strings } from './strings';

/**
 * The window's one way to the backend. In the desktop app the preload exposed the API on
 * `window.workspaceSync`; in a browser (the `cli ui` bridge) the same API runs over one
 * WebSocket on this origin, authorised by the secret the bridge put in the address's fragment.
 */
export function connectApi(): WorkspaceSyncApi {
  const exposed = (window as unknown as Record<string, unknown>)[API_GLOBAL];
  if (isApi(exposed)) return exposed;
  const secret = takeSecret();
  return new SocketApi(socketUrl(secret));
}

function isApi(value: unknown): value is WorkspaceSyncApi {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { call?: unknown }).call === 'function' &&
    typeof (value as { on?: unknown }).on === 'function'
  );
}

/**
 * Reads `#secret=...` and removes it from the address bar at once, so the secret is neither
 * shown, nor bookmarked, nor kept in the history entry. A reload keeps it in sessionStorage
 * (this tab only), otherwise reloading the page would lock the user out.
 */
function takeSecret(): string {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const fromHash = params.get('secret');
  if (fromHash) {
    sessionStorage.setItem('workspace-sync-secret', fromHash);
    history.replaceState(null, '', location.pathname + location.search);
    return fromHash;
  }
  return sessionStorage.getItem('workspace-sync-secret') ?? '';
}

function socketUrl(secret: string): string {
  const url = new URL('/api', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('secret', secret);
  return url.toString();
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

type Listener = (data: unknown) => void;

/** WorkspaceSyncApi over one WebSocket: request ids, a map of pending replies, pushed events. */
class SocketApi implements WorkspaceSyncApi {
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly socket: WebSocket;
  private readonly open: Promise<void>;
  private closed: AppCallError | null = null;

  constructor(url: string) {
    this.socket = new WebSocket(url);
    this.open = new Promise((resolve, reject) => {
      this.socket.addEventListener('open', () => resolve(), { once: true });
      this.socket.addEventListener('close', () => reject(this.lost()), { once: true });
    });
    // A call made before the socket opened may never be awaited if the page goes away.
    this.open.catch(() => {});
    this.socket.addEventListener('message', (e: MessageEvent) => this.receive(e.data));
    this.socket.addEventListener('close', () => {
      const error = this.lost();
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    });
  }

  private lost(): AppCallError {
    this.closed ??= new AppCallError({
      kind: 'offline',
      message: strings.connectionLost,
    });
    return this.closed;
  }

  async call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    await this.open;
    if (this.closed) throw this.closed;
    const id = this.next++;
    const result = new Promise<unknown>((resolve, reject) =>
      this.pending.set(id, { resolve, reject }),
    );
    this.socket.send(JSON.stringify({ id, method, params }));
    // The bridge validated the result already; checking again here keeps a mismatched
    // backend from reaching the views as data of the wrong shape.
    const checked = Methods[method].result.safeParse(await result);
    if (!checked.success) {
      throw new AppCallError({
        kind: 'internal',
        message: `The answer to ${method} did not have the expected shape.`,
      });
    }
    return checked.data as ResultOf<M>;
  }

  on<E extends EventName>(event: E, listener: (data: EventOf<E>) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const l = listener as Listener;
    set.add(l);
    return () => set.delete(l);
  }

  private receive(raw: unknown): void {
    if (typeof raw !== 'string') return;
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    const reply = Reply.safeParse(message);
    if (reply.success) {
      const p = this.pending.get(reply.data.id);
      if (!p) return;
      this.pending.delete(reply.data.id);
      if (reply.data.ok) p.resolve(reply.data.result);
      else p.reject(new AppCallError(reply.data.error));
      return;
    }
    const push = Push.safeParse(message);
    if (!push.success) return;
    const { event, data } = push.data;
    if (!Object.hasOwn(Events, event)) return;
    const checked = Events[event as EventName].safeParse(data);
    if (!checked.success) return;
    for (const l of this.listeners.get(event) ?? []) l(checked.data);
  }
}
