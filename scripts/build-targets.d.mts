import type { BuildOptions } from 'esbuild';

/** The esbuild targets of the app (scripts/build-targets.mjs). */
export declare const targets: BuildOptions[];
