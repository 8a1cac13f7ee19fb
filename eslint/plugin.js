import { existsSync } from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { layers, packages } from './layers.js';

const root = path.resolve(import.meta.dirname, '..');
const builtins = new Set(builtinModules);

/** The layer a repository-relative path (with `/` separators) belongs to, or undefined. */
export function layerOf(relPath) {
  let best;
  for (const layer of layers) {
    const prefix = layer.dir + '/';
    if (!relPath.startsWith(prefix)) continue;
    if (layer.flat && relPath.slice(prefix.length).includes('/')) continue;
    if (!best || layer.dir.length > best.dir.length) best = layer;
  }
  return best;
}

/** The package a bare specifier names: `electron/main` is `electron`, `@scope/x/y` is `@scope/x`. */
export function packageOf(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const allowList = new Map(packages.map((p) => [p.name, p.layers]));

/** An import of a folder (`../engine`) is an import of its index file, in that folder's layer. */
function resolveSpec(absPath) {
  return existsSync(path.join(absPath, 'index.ts')) ? path.join(absPath, 'index.ts') : absPath;
}

function toRel(absPath) {
  return path.relative(root, absPath).split(path.sep).join('/');
}

const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the import rules between the layers in eslint/layers.js' },
    schema: [],
    messages: {
      package:
        "Layer '{{layer}}' must not import {{pkg}}: only the layers {{allowed}} may (the packages list in eslint/layers.js).",
      node: "Layer '{{layer}}' also runs in the renderer and must not import the Node built-in '{{spec}}'.",
      layer:
        "Layer '{{layer}}' must not import from layer '{{target}}' ({{spec}}); it may import from: {{allowed}}.",
      undeclared: "'{{file}}' is under src/ but in no declared layer: add it to eslint/layers.js.",
    },
  },
  create(context) {
    const file = toRel(context.filename);
    if (!file.startsWith('src/')) return {};
    const layer = layerOf(file);
    if (!layer) {
      return {
        Program(node) {
          context.report({ node, messageId: 'undeclared', data: { file } });
        },
      };
    }
    const check = (node, spec) => {
      if (typeof spec !== 'string') return;
      if (spec.startsWith('node:') || builtins.has(spec.split('/')[0])) {
        if (!layer.node)
          context.report({ node, messageId: 'node', data: { layer: layer.name, spec } });
        return;
      }
      if (!spec.startsWith('.')) {
        // A package: free for all unless it has an allow-list.
        const pkg = packageOf(spec);
        const allowed = allowList.get(pkg);
        if (allowed && !allowed.includes(layer.name)) {
          context.report({
            node,
            messageId: 'package',
            data: { layer: layer.name, pkg, allowed: allowed.join(', ') },
          });
        }
        return;
      }
      const target = layerOf(
        toRel(resolveSpec(path.resolve(path.dirname(context.filename), spec))),
      );
      if (!target || target === layer || layer.may.includes(target.name)) return;
      context.report({
        node,
        messageId: 'layer',
        data: {
          layer: layer.name,
          target: target.name,
          spec,
          allowed: layer.may.join(', ') || 'nothing',
        },
      });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') {
          const arg = node.arguments[0];
          if (arg && arg.type === 'Literal') check(node, arg.value);
        }
      },
    };
  },
};

export default { meta: { name: 'workspace-sync-layers' }, rules: { layers: layersRule } };
