import { OpenFailed } from '../os/open-path';
import { fail } from './errors';

/** The desktop app's shell could not open a path: its reason, as the system said it. */
export class SystemOpenRefused extends Error {
  constructor(readonly reason: string) {
    super(`The system could not open it: ${reason}`);
    this.name = 'SystemOpenRefused';
  }
}

/**
 * Why an open or a show did not happen, in words with the path to open by hand: the opener
 * missing, or the code it ended with (xdg-open's when no program takes the path), or in the
 * desktop app the reason its shell gave. `what` says
 * which words name the place: a sync folder, the logs folder, an item.
 */
export function failOpen(err: unknown, where: string, what: 'folder' | 'logs' | 'item'): never {
  if (err instanceof SystemOpenRefused) {
    const reason = err.reason.replace(/[.\s]+$/, '');
    if (what === 'logs')
      fail('unsupported', { key: 'backend.systemOpenFailedLogs', params: { reason, dir: where } });
    fail('unsupported', { key: 'backend.systemOpenFailed', params: { reason, path: where } });
  }
  if (err instanceof OpenFailed && !err.reason.missing) {
    const code = String(err.reason.code);
    if (what === 'logs')
      fail('unsupported', {
        key: 'backend.openFailedLogs',
        params: { program: err.program, code, dir: where },
      });
    fail('unsupported', {
      key: 'backend.openFailed',
      params: { program: err.program, code, path: where },
    });
  }
  if (what === 'item') fail('unsupported', { key: 'backend.noProgram', params: { path: where } });
  fail('unsupported', {
    key: what === 'logs' ? 'backend.noFileManagerLogs' : 'backend.noFileManager',
    params: { dir: where },
  });
}
