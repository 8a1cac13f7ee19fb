import { editStrings } from './edit-strings';

// What the person's role lets them do in Browse (conventions.md, Roles; src/service/roles.ts):
// Creator and above add (upload, new folder); Collaborator and above rename, move and delete
// anything; a Creator deletes what they added (the listing says which: `Entry.mine`). Each right
// is null when allowed, else the reason in words, shown beside the disabled control.

const RANKS = ['Viewer', 'Printer', 'Downloader', 'Creator', 'Collaborator', 'Moderator'];
const rank = (role: string) => (role === 'Administrator' ? RANKS.length : RANKS.indexOf(role));

export interface EditRights {
  create: string | null;
  change: string | null;
  remove: string | null;
  /** A Creator: what they added may be deleted though `remove` says why others may not. */
  removeOwn: boolean;
}

/** Why `items` may not be deleted (null: they may): a Creator's own items may. */
export function removeReason(
  rights: EditRights,
  items: readonly { mine?: boolean }[],
): string | null {
  if (rights.remove === null) return null;
  return rights.removeOwn && items.length > 0 && items.every((i) => i.mine === true)
    ? null
    : rights.remove;
}

/** `role` null: not known (yet); `offline`: Browse shows the synced copy. */
export function rightsOf(role: string | null | undefined, offline: boolean): EditRights {
  const s = editStrings();
  if (offline)
    return {
      create: s.offlineOnly,
      change: s.offlineOnly,
      remove: s.offlineOnly,
      removeOwn: false,
    };
  if (!role)
    return {
      create: s.roleUnknown,
      change: s.roleUnknown,
      remove: s.roleUnknown,
      removeOwn: false,
    };
  const r = rank(role);
  // A role this window does not know is left to the service to refuse, in words.
  if (r < 0) return { create: null, change: null, remove: null, removeOwn: false };
  return {
    create: r >= rank('Creator') ? null : s.noCreate(role),
    change: r >= rank('Collaborator') ? null : s.noChange(role),
    remove:
      r >= rank('Collaborator')
        ? null
        : r >= rank('Creator')
          ? s.noDeleteOthers(role)
          : s.noChange(role),
    removeOwn: r === rank('Creator'),
  };
}
