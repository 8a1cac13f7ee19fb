import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printable } from '../../src/main/errors/user-error';
import { runMain } from '../cli/in-process';
import { KEYCHAIN_TEST_SERVICE, NO_BUS, tempDir } from '../cli/run-cli';

// A server's words and a file's name reach the terminal as text, never as commands: a lying
// server that puts escape sequences in its refusal cannot recolour or rewrite the terminal.

const ESC = '\u001b';
let server: Server;
let base: string;
let tmp: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  tmp = await tempDir('terminal-text');
  server = createServer((_req, res) => {
    res.writeHead(403, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        errors: { base: [`Nope${ESC}[2J${ESC}]0;pwned\u0007\r${ESC}[31mRED${ESC}[0m\u009b1m`] },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await tmp?.remove();
});

describe('text on the terminal', () => {
  it('writes control characters as \\xNN, keeping line breaks and tabs', () => {
    expect(printable(`a${ESC}[31mb\u0007c\r\u009bd\n\te\u007f`)).toBe(
      'a\\x1b[31mb\\x07c\\x0d\\x9bd\n\te\\x7f',
    );
    expect(printable('Größe „ok“ 📷')).toBe('Größe „ok“ 📷');
  });

  it('says a lying server’s refusal in one line without its escape sequences, in both languages', async () => {
    const tokenFile = path.join(tmp.dir, 'token');
    await mkdir(tmp.dir, { recursive: true });
    await writeFile(tokenFile, 'a-token-of-the-test', { mode: 0o600 });
    for (const [lang, lead] of [
      ['de_DE.UTF-8', 'workspace-sync: Nicht erlaubt: Nope\\x1b[2J'],
      ['C', 'workspace-sync: Not permitted: Nope\\x1b[2J'],
    ] as const) {
      const run = await runMain(['workspaces', '--server', base, '--token-file', tokenFile], {
        LANG: lang,
        WORKSPACE_SYNC_STATE: path.join(tmp.dir, 'state'),
        WORKSPACE_SYNC_KEYCHAIN_SERVICE: KEYCHAIN_TEST_SERVICE,
        DBUS_SESSION_BUS_ADDRESS: NO_BUS,
        HOME: tmp.dir,
      });
      expect(run.code).toBe(1);
      expect(run.err.startsWith(lead), run.err).toBe(true);
      expect(run.err.trimEnd().split('\n')).toHaveLength(1);
      // eslint-disable-next-line no-control-regex
      expect(run.err).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
  });
});
