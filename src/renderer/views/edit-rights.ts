import { editStrings } from './edit-strings';

// What the person's role lets them do in Browse (conventions.md, Roles; src/service/roles.ts):
// Creator and above add (upload, new folder); Collaborator and above rename, move and delete
// anything. A Creator may delete what they created, but the listing does not say who did: the
// window does not offer it and says why (the service would decide item by item). Each right is
// null when allowed, else the reason in words, shown beside the disabled control.

const RANKS = ['Viewer', 'Printer', 'Downloader', 'Creator', 'Collaborator', 'Moderator'];
const rank = (role: string) => (role === 'Administrator' ? RANKS.length : RANKS.indexOf(role));

export interface EditRights {
  create: string | null;
  change: string | null;
  remove: string | null;
}

/** `role` null: not known (yet); `offline`: Browse shows the synced copy. */
export function rightsOf(role: string | null | undefined, offline: boolean): EditRights {
  const s = editStrings();
  if (offline) return { create: s.offlineOnly, change: s.offlineOnly, remove: s.offlineOnly };
  if (!role) return { create: s.roleUnknown, change: s.roleUnknown, remove: s.roleUnknown };
  const r = rank(role);
  // A role this window does not know is left to the service to refuse, in words.
  if (r < 0) return { create: null, change: null, remove: null };
  return {
    create: r >= rank('Creator') ? null : s.noCreate(role),
    change: r >= rank('Collaborator') ? null : s.noChange(role),
    remove:
      r >= rank('Collaborator')
        ? null
        : r >= rank('Creator')
          ? s.noDeleteOthers(role)
          : s.noChange(role),
  };
}
