/**
 * What an item is, wherever one is named: on the wire (the service and its client), in the
 * journal, in the engine and in the window's API (app-api.ts checks values against this list).
 * Declared once, here in the lowest layer, so that every layer imports the same type.
 */
export const ITEM_KINDS = ['folder', 'file'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];
