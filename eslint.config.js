import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import layers from './eslint/plugin.js';

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'coverage/', 'test-results/', 'bench-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { layers },
    rules: {
      'layers/layers': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // So that `eslint package.json` (named with the scripts' wiring) checks it rather than warn
    // that no configuration matches: it must parse, read as the value of a module's export.
    files: ['package.json'],
    processor: {
      preprocess: (text) => [{ text: `export default ${text};\n`, filename: 'package.js' }],
      postprocess: (messages) => messages.flat(),
      supportsAutofix: false,
    },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
