/**
 * The languages there are catalogs for, without the catalogs: what the window's contract
 * (app-api.ts, in the preload too) needs, so that importing it brings no messages along.
 */
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
