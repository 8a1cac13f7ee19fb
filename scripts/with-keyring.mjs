#!/usr/bin/env node
// `node scripts/with-keyring.mjs COMMAND [ARGS...]`: runs COMMAND inside a private D-Bus session
// with a gnome-keyring of its own, unlocked with a throwaway password, its files in a temporary
// folder: keychain tests use a real Secret Service and never touch the developer's keyring.
// COMMAND sees WORKSPACE_SYNC_TEST_KEYRING set to the session's bus address (the tests check it).
// Without dbus-run-session or gnome-keyring-daemon it says what to install and runs COMMAND
// anyway: the keychain tests then fail saying the same, and every other test runs.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';

const command = process.argv.slice(2);
if (command.length === 0) {
  console.error('usage: node scripts/with-keyring.mjs COMMAND [ARGS...]');
  process.exit(2);
}

const onPath = (name) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;

/** Runs `cmd` with `env`, forwarding Ctrl-C and SIGTERM, and exits with its status. */
function run(cmd, args, env, cleanup = () => {}) {
  const child = spawn(cmd, args, { stdio: 'inherit', env });
  const forward = (sig) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.once('error', (err) => {
    cleanup();
    console.error(`with-keyring: cannot run ${cmd}: ${err.message}`);
    process.exit(127);
  });
  child.once('exit', (code, signal) => {
    cleanup();
    process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
  });
}

const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((n) => !onPath(n));
if (process.env.WORKSPACE_SYNC_TEST_KEYRING) {
  // Already inside one (a nested call).
  run(command[0], command.slice(1), process.env);
} else if (missing.length > 0) {
  console.error(
    `with-keyring: ${missing.join(' and ')} not found, so there is no private keyring and the ` +
      'keychain tests will fail. Install them (Debian/Ubuntu: sudo apt-get install dbus gnome-keyring).',
  );
  run(command[0], command.slice(1), process.env);
} else {
  const home = mkdtempSync(path.join(tmpdir(), 'ws-keyring-'));
  // The daemon's own environment only: keyring files and its control socket in the temporary
  // folder. The command keeps the caller's XDG directories.
  const script = `
set -e
mkdir -m 700 "$KR_HOME/data" "$KR_HOME/runtime" "$KR_HOME/cache"
out=$(printf '%s\\n' "$KR_PASSWORD" | XDG_DATA_HOME="$KR_HOME/data" XDG_RUNTIME_DIR="$KR_HOME/runtime" XDG_CACHE_HOME="$KR_HOME/cache" gnome-keyring-daemon --unlock --components=secrets)
unset KR_PASSWORD KR_HOME
for line in $out; do export "$line"; done
export WORKSPACE_SYNC_TEST_KEYRING="$DBUS_SESSION_BUS_ADDRESS"
exec "$@"
`;
  run(
    'dbus-run-session',
    ['--', 'sh', '-c', script, 'with-keyring', ...command],
    {
      ...process.env,
      KR_HOME: home,
      KR_PASSWORD: randomBytes(18).toString('base64url'),
    },
    () => rmSync(home, { recursive: true, force: true }),
  );
}
