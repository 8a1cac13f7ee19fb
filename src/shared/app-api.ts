/**
 * The one typed API the renderer talks to. The preload implements it over IPC; the web bridge
 * (`cli ui`) implements it over HTTP/WebSocket. Plain serializable data only.
 * The window issue grows it; this is its seed.
 */
export interface AppInfo {
  readonly name: string;
  readonly version: string;
  readonly platform: 'darwin' | 'win32' | 'linux' | 'web';
}

export interface WorkspaceSyncApi {
  getAppInfo(): Promise<AppInfo>;
}

/** The global name under which the preload exposes the API in the renderer. */
export const API_GLOBAL = 'workspaceSync';

/** IPC channel names, shared by main and preload so they cannot drift apart. */
export const IpcChannel = {
  getAppInfo: 'app:get-info',
} as const;
