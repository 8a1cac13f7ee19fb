import { z } from 'zod';
import { ITEM_KINDS } from './item-kind';

/**
 * The item whose link options a page shows alone (issue 42: "Copy link with options…" from a
 * file manager): `cli ui --link-options PATH` opens the window's page with it in the address's
 * query (`?linkOptions=` JSON), the app's small window the same. Ids and a name only: no secret.
 */
export const LinkOptionsTarget = z.object({
  accountId: z.string().min(1),
  workspaceId: z.number().int().nonnegative(),
  kind: z.enum(ITEM_KINDS),
  itemId: z.number().int().nonnegative(),
  name: z.string(),
});
export type LinkOptionsTarget = z.infer<typeof LinkOptionsTarget>;

export const LINK_OPTIONS_PARAM = 'linkOptions';

/** The query string that opens the page at the item's link options. */
export const linkOptionsQuery = (t: LinkOptionsTarget) =>
  `?${LINK_OPTIONS_PARAM}=${encodeURIComponent(JSON.stringify(t))}`;

/** The target of an address's query string, or null (none, or not one). */
export function linkOptionsOf(search: string): LinkOptionsTarget | null {
  const raw = new URLSearchParams(search).get(LINK_OPTIONS_PARAM);
  if (raw === null) return null;
  try {
    const parsed = LinkOptionsTarget.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
