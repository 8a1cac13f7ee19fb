import { keepHeapNearLive } from '../core/heap';
import { runHost } from './host';
import type { FromHost, Port, ToHost } from './protocol';

// The engine host's entry. Under Electron it is a utility process and talks over
// `process.parentPort`; forked by plain Node (the tests), over the IPC channel of `fork`.

interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
}

function portOf(): Port<ToHost, FromHost> {
  const parent = (process as { parentPort?: ParentPortLike }).parentPort;
  if (parent) {
    return {
      post: (m) => parent.postMessage(m),
      onMessage: (listener) => parent.on('message', (e) => listener(e.data as ToHost)),
    };
  }
  const send = process.send?.bind(process);
  if (!send) throw new Error('The engine host must be started by Workspace Sync.');
  return {
    post: (m) => {
      sending++;
      send(m, undefined, {}, () => {
        if (--sending === 0) drained?.();
      });
    },
    onMessage: (listener) => process.on('message', (m) => listener(m as ToHost)),
  };
}

keepHeapNearLive();
let sending = 0;
let drained: (() => void) | null = null;

runHost(portOf(), (code) => {
  // The last messages (`stopped`) must leave before the process ends.
  if (sending === 0) process.exit(code);
  drained = () => process.exit(code);
});
