import { app } from 'electron';
import path from 'node:path';
import { parseAppArgs } from './args';
import { startDesktop } from './app';
import { main as runCli } from './cli/main';
import { logMoves, moveToPlaces } from './state/move-places';
import { placesOf } from './state/state-dir';
import { forkEngine } from './engine-process';
import { installDesktopIntegrations } from './integrations';
import { createFileLogger } from './core/file-log';
import { keepHeapNearLive } from './core/heap';

// The thin Electron shell: everything it wires lives in modules tested under plain Node or
// against a fake electron module.
const outDir = path.dirname(import.meta.dirname);
const args = parseAppArgs(process.argv, process.cwd());

if (args.cli) {
  // The packaged CLI (`workspace-sync` runs `<app> --cli …`): RunAsNode is fused off, so the
  // app binary runs the headless client itself, without a window.
  app.dock?.hide();
  keepHeapNearLive();
  void runCli(args.cli, {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
  }).then((code) => app.exit(code));
} else {
  // The engine host's environment, ours with its secrets (it reads WORKSPACE_SYNC_CLIENT_SECRET),
  // taken before startDesktop drops them from this process's own.
  const engineEnv = { ...process.env };
  // Windows shows a notification only for the app id the installer registered.
  if (process.platform === 'win32') app.setAppUserModelId('com.workspacesync.desktop');
  const places = placesOf(undefined, process.env);
  const verbose = process.argv.includes('--verbose');
  // Before the log opens: earlier versions' logs may be moving to where this one writes.
  const moved = moveToPlaces(places);
  const log = createFileLogger({ file: path.join(places.logs, 'app.log'), verbose });
  logMoves(log, moved);
  const resources = app.isPackaged ? process.resourcesPath : path.join(app.getAppPath(), 'assets');
  startDesktop({
    argv: process.argv,
    cwd: process.cwd(),
    stateDir: places.state,
    configDir: places.config,
    logsDir: places.logs,
    version: app.getVersion(),
    verbose,
    paths: {
      preload: path.join(outDir, 'preload', 'index.cjs'),
      renderer: path.join(outDir, 'renderer', 'index.html'),
      trayIcons: path.join(resources, 'tray'),
    },
    forkEngine: () => forkEngine(path.join(outDir, 'main', 'host.js'), verbose, engineEnv),
    log,
    integrate: () => installDesktopIntegrations({ log, resources }),
  });
}
