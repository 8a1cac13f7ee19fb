#!/usr/bin/env node
// `npm test`'s static checks at once (the type checks, eslint, prettier), not one after the
// other: each mostly waits on one core, and the machine has two. Each one's output is printed
// whole when it ends, so two never interleave; the exit code is the first failure's.
import { spawn } from 'node:child_process';

// The same as `npm run typecheck` and `npm run lint` (package.json), each program by its path.
const TSC = 'node_modules/typescript/bin/tsc';
const CHECKS = [
  ['typecheck (node)', TSC, ['-p', 'tsconfig.node.json', '--noEmit']],
  ['typecheck (web)', TSC, ['-p', 'tsconfig.web.json', '--noEmit']],
  ['eslint', 'node_modules/eslint/bin/eslint.js', ['--max-warnings', '0', '.']],
  ['prettier', 'node_modules/prettier/bin/prettier.cjs', ['--check', '--log-level', 'warn', '.']],
];

function run([name, program, args]) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [program, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('error', (err) => resolve({ name, code: 1, output: String(err) }));
    child.once('close', (code, signal) =>
      resolve({ name, code: code ?? (signal ? 1 : 0), output }),
    );
  });
}

let failed = 0;
await Promise.all(
  CHECKS.map(async (check) => {
    const { name, code, output } = await run(check);
    if (output.trim()) process.stdout.write(`${name}:\n${output.trimEnd()}\n`);
    if (code !== 0) {
      process.stdout.write(`${name} failed (exit ${code})\n`);
      failed ||= code;
    }
  }),
);
process.exit(failed);
