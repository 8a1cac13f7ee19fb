// The seven roles (real names), most powerful first; each may do everything the ones below it may.
export const ROLES = [
  'Administrator',
  'Moderator',
  'Collaborator',
  'Creator',
  'Downloader',
  'Printer',
  'Viewer',
] as const;

export type RoleName = (typeof ROLES)[number];

export const DEFAULT_ROLE: RoleName = 'Downloader';

export function isRole(name: unknown): name is RoleName {
  return typeof name === 'string' && (ROLES as readonly string[]).includes(name);
}

/** Higher is more powerful: Viewer 1 … Administrator 7. */
export function rank(role: RoleName): number {
  return ROLES.length - ROLES.indexOf(role);
}

export function atLeast(role: RoleName, minimum: RoleName): boolean {
  return rank(role) >= rank(minimum);
}

/** What a role may do, from conventions.md's table. */
export const can = {
  updateWorkspace: (r: RoleName) => atLeast(r, 'Administrator'),
  invite: (r: RoleName) => atLeast(r, 'Moderator'),
  changeRoles: (r: RoleName) => atLeast(r, 'Moderator'),
  updateLinks: (r: RoleName) => atLeast(r, 'Moderator'),
  deleteAnyComment: (r: RoleName) => atLeast(r, 'Moderator'),
  readAuditTrail: (r: RoleName) => atLeast(r, 'Moderator'),
  /** rename, move and delete any folder or file */
  changeAnyItem: (r: RoleName) => atLeast(r, 'Collaborator'),
  readLinks: (r: RoleName) => atLeast(r, 'Collaborator'),
  /** create folders, upload files; delete what they created */
  create: (r: RoleName) => atLeast(r, 'Creator'),
  comment: (r: RoleName) => atLeast(r, 'Creator'),
  download: (r: RoleName) => atLeast(r, 'Downloader'),
  list: (_r: RoleName) => true,
};
