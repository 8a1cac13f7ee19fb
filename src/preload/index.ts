import { contextBridge, ipcRenderer } from 'electron';
import { API_GLOBAL, IpcChannel, type AppInfo, type WorkspaceSyncApi } from '../shared/app-api';

// Exposes exactly the typed API, nothing of ipcRenderer itself.
const api: WorkspaceSyncApi = {
  getAppInfo: () => ipcRenderer.invoke(IpcChannel.getAppInfo) as Promise<AppInfo>,
};

contextBridge.exposeInMainWorld(API_GLOBAL, api);
