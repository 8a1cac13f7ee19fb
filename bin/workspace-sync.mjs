#!/usr/bin/env node
// The `workspace-sync` command: runs the TypeScript entry from source through tsx (no build).
import { register } from 'tsx/esm/api';

register();
const { runProcess } = await import('../src/main/cli/main.ts');
await runProcess(process.argv.slice(2));
