import { z } from 'zod';
import { ITEM_KINDS } from './item-kind';

/**
 * The item whose link options a page shows alone (issue 42: "Copy link with options…" from a
 * file manager): `cli ui --link-options PATH` opens the window's page with it in the address's
 * query (`?linkOptions=`). Ids and a name only: no secret.
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

/**
 * The query string that opens the page at the item's link options: its JSON in base64url, since
 * the bridge refuses an address holding an encoded slash (`%2F`: a traversal's sign), which an
 * account id or a name may hold.
 */
export function linkOptionsQuery(t: LinkOptionsTarget): string {
  const bytes = new TextEncoder().encode(JSON.stringify(t));
  const base64 = btoa(String.fromCharCode(...bytes));
  const url = base64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
  return `?${LINK_OPTIONS_PARAM}=${url}`;
}

function fromBase64Url(text: string): string {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** The target of an address's query string, or null (none, or not one). */
export function linkOptionsOf(search: string): LinkOptionsTarget | null {
  const raw = new URLSearchParams(search).get(LINK_OPTIONS_PARAM);
  if (raw === null) return null;
  try {
    const parsed = LinkOptionsTarget.safeParse(JSON.parse(fromBase64Url(raw)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
