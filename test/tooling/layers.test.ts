import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

// Lints snippets as if they lived at the given paths, with the project's real config.
async function lint(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint();
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'layers/layers').map((m) => m.message);
}

describe('the layer rule', () => {
  it('fails when the engine imports electron', async () => {
    const messages = await lint(
      'src/main/sync/bad.ts',
      "import { app } from 'electron';\nexport const a = app;\n",
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("Layer 'sync' must not import electron");
  });

  it('fails for electron in every layer but platform, main wiring and preload', async () => {
    const code = "import { shell } from 'electron';\nexport const s = shell;\n";
    for (const file of [
      'src/shared/x.ts',
      'src/service/x.ts',
      'src/main/api/x.ts',
      'src/main/journal/x.ts',
      'src/main/os/x.ts',
      'src/main/folders/x.ts',
      'src/main/cli/x.ts',
      'src/main/backend/x.ts',
      'src/main/host/x.ts',
      'src/dev/x.ts',
      'src/renderer/x.tsx',
    ]) {
      expect(await lint(file, code), file).toHaveLength(1);
    }
    for (const file of ['src/main/platform/tray.ts', 'src/main/index.ts', 'src/preload/index.ts']) {
      expect(await lint(file, code), file).toEqual([]);
    }
  });

  it('fails when the renderer imports from main or service', async () => {
    expect(
      await lint(
        'src/renderer/App.tsx',
        "import { x } from '../main/sync/engine';\nexport default x;\n",
      ),
    ).toHaveLength(1);
    expect(
      await lint(
        'src/renderer/App.tsx',
        "import { x } from '../service/server';\nexport default x;\n",
      ),
    ).toHaveLength(1);
    expect(
      await lint(
        'src/renderer/App.tsx',
        "import { x } from '../shared/paths';\nexport default x;\n",
      ),
    ).toEqual([]);
  });

  it('keeps Node built-ins out of code that runs in the renderer', async () => {
    expect(
      await lint('src/shared/x.ts', "import fs from 'node:fs';\nexport default fs;\n"),
    ).toHaveLength(1);
    expect(
      await lint('src/renderer/x.ts', "import path from 'path';\nexport default path;\n"),
    ).toHaveLength(1);
  });

  it('enforces the direction between engine layers', async () => {
    expect(
      await lint('src/main/api/x.ts', "import { j } from '../journal/db';\nexport default j;\n"),
    ).toHaveLength(1);
    expect(
      await lint('src/main/sync/x.ts', "import { j } from '../journal/db';\nexport default j;\n"),
    ).toEqual([]);
    expect(
      await lint('src/shared/x.ts', "import { s } from '../service/server';\nexport default s;\n"),
    ).toHaveLength(1);
  });

  it('keeps better-sqlite3 in the journal (and the sandbox): all SQL lives there', async () => {
    const code = "import Database from 'better-sqlite3';\nexport default Database;\n";
    for (const file of [
      'src/main/links/pair-lookup.ts',
      'src/main/cli/x.ts',
      'src/main/backend/x.ts',
      'src/main/sync/x.ts',
      'src/main/host/x.ts',
      'src/main/index.ts',
    ]) {
      const messages = await lint(file, code);
      expect(messages, file).toHaveLength(1);
      expect(messages[0], file).toContain('must not import better-sqlite3');
    }
    for (const file of ['src/main/journal/read-only.ts', 'src/service/db.ts']) {
      expect(await lint(file, code), file).toEqual([]);
    }
    // A type-only import and a subpath count too.
    expect(
      await lint(
        'src/main/links/x.ts',
        "import type { Database } from 'better-sqlite3';\nexport type D = Database;\n",
      ),
    ).toHaveLength(1);
  });

  it('keeps the engine host off the terminal program', async () => {
    const messages = await lint(
      'src/main/host/host.ts',
      "import { main } from '../cli/main';\nexport default main;\n",
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("Layer 'host' must not import from layer 'cli'");
    expect(
      await lint(
        'src/main/host/host.ts',
        "import { AppBackend } from '../backend/backend';\nexport default AppBackend;\n",
      ),
    ).toEqual([]);
  });

  it('lets nothing the app ships import the sandbox: only src/dev may', async () => {
    for (const [file, spec] of [
      ['src/main/cli/connect.ts', '../../service/sandbox'],
      ['src/main/host/host.ts', '../../service/sandbox'],
      ['src/main/backend/backend.ts', '../../service/sandbox'],
      ['src/main/accounts/oauth-client.ts', '../../service/sandbox'],
      ['src/main/index.ts', '../service/sandbox'],
    ] as const) {
      const messages = await lint(
        file,
        `import { startSandbox } from '${spec}';\nexport default startSandbox;\n`,
      );
      expect(messages, file).toHaveLength(1);
      expect(messages[0], file).toContain("must not import from layer 'service'");
    }
    expect(
      await lint(
        'src/dev/cli.ts',
        "import { startSandbox } from '../service/sandbox';\nexport default startSandbox;\n",
      ),
    ).toEqual([]);
  });

  it('keeps the rooms below the window and the terminal off them', async () => {
    const imports = (spec: string) => `import x from '${spec}';\nexport default x;\n`;
    expect(await lint('src/main/backend/x.ts', imports('../cli/common'))).toHaveLength(1);
    expect(await lint('src/main/links/x.ts', imports('../backend/backend'))).toHaveLength(1);
    expect(await lint('src/main/accounts/x.ts', imports('../backend/backend'))).toHaveLength(1);
    expect(await lint('src/main/state/x.ts', imports('../accounts/accounts'))).toHaveLength(1);
    expect(await lint('src/main/os/x.ts', imports('../links/link'))).toHaveLength(1);
    // The folders room reads beside the engine: the engine never imports it.
    expect(
      await lint('src/main/sync/loop/x.ts', imports('../../folders/folder-choice')),
    ).toHaveLength(1);
    expect(await lint('src/main/folders/x.ts', imports('../backend/backend'))).toHaveLength(1);
    expect(await lint('src/main/errors/x.ts', imports('../state/settings'))).toHaveLength(1);
    expect(await lint('src/main/cli/x.ts', imports('../backend/backend'))).toEqual([]);
  });

  it('lets the hosts into the engine only by its front door', async () => {
    const imports = (spec: string) => `import x from '${spec}';\nexport default x;\n`;
    for (const [file, spec] of [
      ['src/main/cli/x.ts', '../sync/loop/open'],
      ['src/main/backend/x.ts', '../sync/loop/engine'],
      ['src/main/backend/handlers/x.ts', '../../sync/remote'],
      ['src/main/host/x.ts', '../sync/errors'],
      ['src/main/links/x.ts', '../sync/names'],
      ['src/main/state/x.ts', '../sync/detect-local/ignore'],
      ['src/main/accounts/x.ts', '../sync/ports'],
      ['src/main/x.ts', './sync/loop/engine'],
    ] as const) {
      const messages = await lint(file, imports(spec));
      expect(messages, file).toHaveLength(1);
      expect(messages[0], file).toMatch(/must not import from layer 'sync/);
    }
    // The door itself: a folder's import is its index file, in the 'engine' layer.
    expect(await lint('src/main/cli/x.ts', imports('../engine'))).toEqual([]);
    expect(await lint('src/main/backend/handlers/x.ts', imports('../../engine'))).toEqual([]);
    expect(await lint('src/main/engine/index.ts', imports('../sync/loop/open'))).toEqual([]);
  });

  it('keeps the core room below the engine: everyone may use it, it uses no room above', async () => {
    const imports = (spec: string) => `import x from '${spec}';\nexport default x;\n`;
    expect(await lint('src/main/sync/loop/x.ts', imports('../../core/logger'))).toEqual([]);
    expect(await lint('src/main/cli/x.ts', imports('../core/file-log'))).toEqual([]);
    expect(await lint('src/main/core/x.ts', imports('../engine'))).toHaveLength(1);
    expect(await lint('src/main/core/x.ts', imports('../sync/ports'))).toHaveLength(1);
  });

  it('flags a file under src that is in no declared layer', async () => {
    expect(await lint('src/other/x.ts', 'export const a = 1;\n')).toHaveLength(1);
  });
});
