import { z } from 'zod';

// The resources as the client needs them. Loose objects: fields the client does not read may
// be missing or extra (conventions.md: "the client is liberal"); the ones it needs must be there.

const id = z.number().int();
const timestamp = z.string();

export const Workspace = z.looseObject({
  id,
  name: z.string(),
  root_folder_id: id,
  updated_at: timestamp.optional(),
  background_color: z.string().optional(),
  data_room: z.boolean().optional(),
  default_view: z.string().optional(),
  default_sort: z.string().optional(),
  owner_id: id.nullish(),
  is_owner: z.boolean().optional(),
  effective_role: z.string().optional(),
});
export type Workspace = z.output<typeof Workspace>;

const itemCommon = {
  id,
  filename: z.string(),
  created_at: timestamp.optional(),
  updated_at: timestamp,
  user_id: id.nullish(),
  workspace_id: id.optional(),
  ancestor_ids: z.array(id).optional(),
  'hidden?': z.boolean().optional(),
  size: z.number().nonnegative().optional(),
};

export const Folder = z.looseObject(itemCommon);
export type Folder = z.output<typeof Folder>;

export const FileItem = z.looseObject({
  ...itemCommon,
  size: z.number().nonnegative(),
  thumbnail: z
    .looseObject({
      width: z.number().optional(),
      height: z.number().optional(),
      url: z.string().optional(),
    })
    .nullish(),
});
export type FileItem = z.output<typeof FileItem>;

export const Comment = z.looseObject({
  id,
  body: z.string(),
  user_id: id.nullish(),
  user_name: z.string().optional(),
  updated_at: timestamp.optional(),
  owner_type: z.string().optional(),
  owner_id: id.optional(),
  discussion_id: id.optional(),
});
export type Comment = z.output<typeof Comment>;

export const Link = z.looseObject({
  token: z.string(),
  token_accessible: z.boolean(),
  require_password: z.boolean(),
  token_expires: z.boolean().optional(),
  token_expires_at: timestamp.nullish(),
  link: z.string(),
  url: z.string().optional(),
});
export type Link = z.output<typeof Link>;

export const Event = z.looseObject({
  id,
  updated_at: timestamp,
  detail: z.string(),
  workspace_id: id.nullish(),
  user_id: id.nullish(),
});
export type Event = z.output<typeof Event>;

/**
 * A member of a workspace, or an invitation not accepted yet (`state` pending, `user` without an
 * id). `available_roles` are the roles the requester may give this member; absent where a server
 * does not say (the window then works them out from the requester's own role).
 */
export const Rolemap = z.looseObject({
  id,
  role_name: z.string(),
  state: z.string().optional(),
  user_id: id.nullish(),
  user: z
    .looseObject({
      id: id.nullish(),
      email: z.string().nullish(),
      first_name: z.string().nullish(),
      last_name: z.string().nullish(),
    })
    .nullish(),
  available_roles: z.array(z.string()).nullish(),
  updated_at: timestamp.optional(),
});
export type Rolemap = z.output<typeof Rolemap>;

/**
 * An invitation's outcome. Only `invited_emails` is read as data; the two error lists are
 * liberal (`email_errors`: addresses refused; `join_errors`: already members), since their shape
 * is not documented beyond a list.
 */
export const Share = z.looseObject({
  invited_emails: z.array(z.record(z.string(), id)).optional(),
  email_errors: z.unknown().optional(),
  join_errors: z.unknown().optional(),
});
export type Share = z.output<typeof Share>;

/** Items of a list: `{"<kind>": {...}}` each; an unpaged answer may be a bare array. */
export const ListWrapper = z.union([
  z.looseObject({
    items: z.array(z.unknown()),
    total_entries: z.number().optional(),
    per_page: z.number().optional(),
    next_offset: z.number().nullish(),
  }),
  z.array(z.unknown()),
]);
