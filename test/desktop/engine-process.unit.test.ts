import { describe, expect, it } from 'vitest';
import { forkEngine } from '../../src/main/engine-process';
import { utilityProcess } from './fake-electron';

describe('the engine process', () => {
  it('is a utility process running the host bundle, its messages passed both ways', () => {
    // The host's environment is the app's own, secrets included (main drops them from its own).
    const env = { PATH: '/bin', WORKSPACE_SYNC_CLIENT_SECRET: 's' };
    const engine = forkEngine('/app/out/main/host.js', false, env);
    expect(utilityProcess.forks.at(-1)).toEqual({
      modulePath: '/app/out/main/host.js',
      options: { env, serviceName: 'Workspace Sync engine', stdio: 'ignore' },
    });
    const received: unknown[] = [];
    const exits: number[] = [];
    engine.onMessage((m) => received.push(m));
    engine.onExit((code) => exits.push(code));
    engine.post({ type: 'stop' });
    const child = utilityProcess.lastChild();
    expect(child.posted).toEqual([{ type: 'stop' }]);
    child.emit('message', { type: 'stopped' });
    child.emit('exit', 0);
    expect(received).toEqual([{ type: 'stopped' }]);
    expect(exits).toEqual([0]);
    // Verbose runs show the engine's own output.
    forkEngine('/h.js', true);
    expect(utilityProcess.forks.at(-1)?.options).toMatchObject({ stdio: 'inherit' });
  });
});
