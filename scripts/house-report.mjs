#!/usr/bin/env node
// The house in figures, at any revision: lines per room, the largest files and functions of
// src/main, and how many pass the limits (400 lines a file, 80 a function). Issue 40's
// before/after: `node scripts/house-report.mjs c370cbc` beside `node scripts/house-report.mjs`.
// Reads the revision's files through git (no checkout), so it runs on a dirty tree too.
import { execFileSync } from 'node:child_process';
import ts from 'typescript';

const rev = process.argv[2] ?? 'HEAD';
const git = (...args) =>
  execFileSync('git', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });

const files = git('ls-tree', '-r', '--name-only', rev, 'src')
  .split('\n')
  .filter((f) => /\.(ts|tsx)$/.test(f));

/** src/main/sync/loop/x.ts -> src/main/sync/loop; src/main/app.ts -> src/main (its top files). */
function roomOf(file) {
  const parts = file.split('/');
  if (parts[1] !== 'main') return parts.slice(0, 2).join('/');
  if (parts.length === 3) return 'src/main';
  if (parts[2] === 'sync' && parts.length > 4) return parts.slice(0, 4).join('/');
  return parts.slice(0, 3).join('/');
}

/** Each named function's line span: declarations, methods, accessors, and named arrows. */
function functionsOf(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out = [];
  const lines = (node) =>
    source.getLineAndCharacterOfPosition(node.getEnd()).line -
    source.getLineAndCharacterOfPosition(node.getStart()).line +
    1;
  const visit = (node) => {
    let name = null;
    if (
      (ts.isFunctionDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isGetAccessor(node) ||
        ts.isSetAccessor(node)) &&
      node.body
    )
      name = node.name?.getText(source) ?? '(default)';
    else if (ts.isConstructorDeclaration(node) && node.body) name = 'constructor';
    else if (
      (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) &&
      (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent)) &&
      node.parent.initializer === node
    )
      name = node.parent.name.getText(source);
    if (name) out.push({ name, lines: lines(node) });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const rooms = new Map();
const main = [];
const functions = [];
for (const file of files) {
  const text = git('show', `${rev}:${file}`);
  const n = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const room = roomOf(file);
  rooms.set(room, (rooms.get(room) ?? 0) + n);
  if (!file.startsWith('src/main/')) continue;
  main.push({ file, lines: n });
  for (const f of functionsOf(file, text)) functions.push({ ...f, file });
}

main.sort((a, b) => b.lines - a.lines);
functions.sort((a, b) => b.lines - a.lines);
const report = {
  rev: git('rev-parse', '--short', rev).trim(),
  rooms: Object.fromEntries([...rooms].sort((a, b) => b[1] - a[1])),
  mainFiles: main.length,
  filesOver400: main.filter((f) => f.lines > 400).length,
  functionsOver80: functions.filter((f) => f.lines > 80).length,
  largestFiles: main.slice(0, 10).map((f) => `${f.file} ${f.lines}`),
  largestFunctions: functions.slice(0, 10).map((f) => `${f.file}:${f.name} ${f.lines}`),
};
for (const [k, v] of Object.entries(report)) {
  if (typeof v !== 'object') console.log(`${k}: ${v}`);
  else if (Array.isArray(v)) console.log(`${k}:\n  ${v.join('\n  ')}`);
  else
    console.log(
      `${k}:\n  ${Object.entries(v)
        .map(([r, n]) => `${r} ${n}`)
        .join('\n  ')}`,
    );
}
console.log(JSON.stringify(report));
