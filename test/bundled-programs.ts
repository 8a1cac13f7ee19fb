// The programs test files start as children that test/bundles.global-setup.ts bundles once per
// run (test/bundles.ts says how a test starts one). No imports: the set-up and the workers share it.

/** Each program: its source (repository-relative), and the entry code that runs it, if not its import. */
export const BUNDLED = {
  // The dev entry exports the CLI with the sandbox plugged in, and runs it only as the entry.
  cli: {
    file: 'src/dev/cli.ts',
    run: "import { runProcess } from './src/dev/cli';\nvoid runProcess(process.argv.slice(2));\n",
  },
  sandbox: { file: 'src/service/cli.ts' },
  'crash-child': { file: 'test/sync/crash-child.ts' },
} satisfies Record<string, { file: string; run?: string }>;

export type BundleName = keyof typeof BUNDLED;
