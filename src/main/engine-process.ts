import { utilityProcess } from 'electron';
import type { FromHost, Port, ToHost } from './host/protocol';

export interface EngineProcess extends Port<FromHost, ToHost> {
  onExit(listener: (code: number) => void): void;
  kill(): void;
}

/** Starts the engine host (out/main/host.js) in an Electron utility process. */
/** `env`: the host's environment (the app's own, secrets included: the host is ours). */
export function forkEngine(
  modulePath: string,
  verbose: boolean,
  env: NodeJS.ProcessEnv = process.env,
): EngineProcess {
  const child = utilityProcess.fork(modulePath, [], {
    env,
    serviceName: 'Workspace Sync engine',
    stdio: verbose ? 'inherit' : 'ignore',
  });
  return {
    post: (m) => child.postMessage(m),
    onMessage: (listener) => child.on('message', (m: unknown) => listener(m as FromHost)),
    onExit: (listener) => child.on('exit', listener),
    kill: () => void child.kill(),
  };
}
