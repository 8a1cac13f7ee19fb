import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  API_GLOBAL,
  AppCallError,
  IpcChannel,
  Push,
  Reply,
  type EventName,
  type EventOf,
  type MethodName,
  type ParamsOf,
  type ResultOf,
  type WorkspaceSyncApi,
} from '../shared/app-api';

// Exposes exactly the typed API, nothing of ipcRenderer itself. Main validates every call
// (and checks its sender); replies and events are checked against the contract here too.
let next = 1;
const api: WorkspaceSyncApi = {
  async call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    const reply = Reply.parse(await ipcRenderer.invoke(IpcChannel.call, next++, method, params));
    if (!reply.ok) throw new AppCallError(reply.error);
    return reply.result as ResultOf<M>;
  },
  on<E extends EventName>(event: E, listener: (data: EventOf<E>) => void): () => void {
    const handler = (_e: IpcRendererEvent, message: unknown) => {
      const push = Push.safeParse(message);
      if (push.success && push.data.event === event) listener(push.data.data as EventOf<E>);
    };
    ipcRenderer.on(IpcChannel.event, handler);
    return () => ipcRenderer.removeListener(IpcChannel.event, handler);
  },
};

contextBridge.exposeInMainWorld(API_GLOBAL, api);
