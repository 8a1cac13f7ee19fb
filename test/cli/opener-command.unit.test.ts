import { describe, expect, it } from 'vitest';
import { filesCommand, openerCommand } from '../../src/main/cli/integrate-command';
import { parseAppArgs } from '../../src/main/args';

// What a placeholder's double-click runs: the installed app where integrate runs from it (issue
// 41: "a .desktop handler that runs the app (--open PATH) or, without it, the CLI").

describe('the opener of placeholders', () => {
  it('runs the app with --open where integrate runs from the installed app', () => {
    const app = '/opt/Workspace Sync/workspace-sync';
    const command = openerCommand([app, '--cli'], ['--state', '/s']);
    expect(command).toEqual([app, '--open']);
    // As the opener's Exec ends (`-- %f`), the app reads the placeholder as one item.
    const placeholder = '/home/a/-x "q" $(id).pdf.wsync';
    expect(parseAppArgs([...command, '--', placeholder], '/').open).toEqual([placeholder]);
  });

  it("runs the app's --files ACTION for the menus where integrate runs from the app", () => {
    const app = '/opt/ws/workspace-sync';
    expect(filesCommand([app, '--cli'], 'pin', ['--state', '/s'])).toEqual([app, '--files', 'pin']);
    expect(parseAppArgs([app, '--files', 'pin', '--', '/h/--x'], '/').files).toEqual({
      op: 'pin',
      paths: ['/h/--x'],
    });
    expect(filesCommand(['/usr/bin/node', '/w/cli.mjs'], 'free', ['--state', '/s'])).toEqual([
      '/usr/bin/node',
      '/w/cli.mjs',
      'files',
      'free',
      '--notify',
      '--state',
      '/s',
    ]);
  });

  it('runs the CLI otherwise', () => {
    expect(
      openerCommand(['/usr/bin/node', '/w/bin/workspace-sync.mjs'], ['--state', '/s']),
    ).toEqual([
      '/usr/bin/node',
      '/w/bin/workspace-sync.mjs',
      'files',
      'open',
      '--notify',
      '--state',
      '/s',
    ]);
  });
});
