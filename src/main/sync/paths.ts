// Paths inside the sync root, as every stage spells them: '/'-separated, relative to the root,
// '' for the root itself; and the places the engine keeps for itself there.

/** The folder at the top of the sync root where the engine keeps its own temporary files. */
export const CACHE_DIR = '.workspace-sync-cache';
/** Where an item waits, by its remote id, while its place is taken by another's move. */
export const MOVING_DIR = `${CACHE_DIR}/moving`;
/** Downloads in progress (and zips being unpacked): renamed into place once verified. */
export const PARTIAL_DIR = `${CACHE_DIR}/partial`;

export const joinPath = (parent: string, name: string) =>
  parent === '' ? name : `${parent}/${name}`;

/** The folder a '/'-separated relative path is in ('' for the root). */
export const parentOf = (rel: string) => {
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
};
