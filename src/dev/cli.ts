// `workspace-sync` run from source (`npm run -s cli -- ARGS`, `npm run demo`, the
// bin/workspace-sync.mjs bin, `node --import tsx src/dev/cli.ts`): the CLI of src/main/cli with
// the embedded demo sandbox (src/service) plugged in. The app never bundles this file, so the
// sandbox never ships; the packaged CLI (`<app> --cli`) says `--sandbox` needs the source.
import { isEntry, main, runProcess } from '../main/cli/main';
import { provideSandbox } from '../main/cli/sandbox';
import { startSandbox } from '../service/sandbox';

provideSandbox(() => startSandbox({ seed: 'demo' }));

export { main, runProcess };

if (isEntry(import.meta.url)) void runProcess(process.argv.slice(2));
