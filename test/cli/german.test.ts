import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { runCli, tempDir } from './run-cli';

// The CLI in German, as on a German system: LANG=de_DE.UTF-8 (LC_ALL and LC_MESSAGES unset, as
// they would win). Its help, a usage mistake, and a whole sync of the demo sandbox: each line
// and the summary in German; without LANG it stays English.

const GERMAN = { LANG: 'de_DE.UTF-8', LC_ALL: '', LC_MESSAGES: '' };
let tmp: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  tmp = await tempDir('german');
});
afterAll(async () => {
  await tmp?.remove();
});

describe('the CLI in German', { timeout: 120_000 }, () => {
  it('says its help and a usage mistake in German, English without LANG', async () => {
    const help = await runCli(['--help'], { env: GERMAN });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Aufruf: workspace-sync <Befehl> \[Optionen\]/);
    expect(help.stdout).toContain('Befehle:\n  login       mit E-Mail und Passwort anmelden');
    expect(help.stdout).toContain('Exit-Status: 0 erledigt, 1 fehlgeschlagen');
    for (const english of ['usage:', 'commands:', 'environment:', 'sign in', 'exit status'])
      expect(help.stdout, english).not.toContain(english);

    // Each command's own help too.
    for (const command of ['sync', 'ui', 'workspaces', 'login', 'logout', 'status', 'link']) {
      const own = await runCli([command, '--help'], { env: GERMAN });
      expect(own.stdout, command).toMatch(new RegExp(`^Aufruf: workspace-sync ${command} `));
      expect(own.stdout, command).toContain('dieser Text');
      for (const english of ['usage:', 'examples:', 'this text', 'state directory'])
        expect(own.stdout, `${command}: ${english}`).not.toContain(english);
    }

    const wrong = await runCli(['frobnicate'], { env: GERMAN });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe(
      'workspace-sync: unbekannter Befehl „frobnicate“\n„workspace-sync --help“ zeigt den Aufruf.\n',
    );

    const none = await runCli(['status', '--state', path.join(tmp.dir, 'none')], { env: GERMAN });
    expect(none.code).toBe(3);
    expect(none.stdout).toMatch(/^Keine Synchronisierung läuft \(Zustandsordner .+none\)\.\n$/);

    const list = await runCli(['workspaces', '--sandbox'], { env: GERMAN });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID +NAME +ROLLE\n/);

    const english = await runCli(['--help'], { env: { LANG: 'C.UTF-8', LC_ALL: '' } });
    expect(english.stdout).toMatch(/^usage: workspace-sync <command> \[options\]/);
  });

  it('syncs the demo and says each state and the summary in German', async () => {
    const run = await runCli(
      [
        'sync',
        '--sandbox',
        '--once',
        '--dir',
        path.join(tmp.dir, 'Q3'),
        '--state',
        path.join(tmp.dir, 'state'),
      ],
      { env: GERMAN },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Eingebettete Sandbox unter http:\/\/127\.0\.0\.1:\d+ \(Demo-/);
    expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d {2}Aktuell$/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^\d\d:\d\d:\d\d {2}\d+ Elemente werden synchronisiert$/),
    );
    expect(lines.at(-1)).toMatch(
      /^Synchronisierung abgeschlossen: \d+ Ordner angelegt, \d+ Dateien heruntergeladen \(\d+,\d MB\), 0 verschoben, 0 in den Papierkorb verschoben, 0 Konflikte, 0 Probleme\.$/,
    );
    expect(run.stdout).not.toMatch(/Sync complete|Syncing|Up to date|Looking at/);
  });
});
