#!/usr/bin/env node
// The `workspace-sync` command: runs the TypeScript entry from source through tsx (no build),
// with the embedded demo sandbox (src/dev/cli.ts).
import { register } from 'tsx/esm/api';

register();
const { runProcess } = await import('../src/dev/cli.ts');
await runProcess(process.argv.slice(2));
