import { ValidationError } from '../../api/errors';
import { fail } from '../errors';
import { linkOf } from '../map';
import type { HandlerContext, HandlersOf } from './context';
import { epochOf } from './instants';
import { roleForItem } from './roles';

/**
 * A service that requires a password for links answers a change without one with a 422 on
 * `password`: the person is asked for one, in words the window knows to show the field for
 * (Nextcloud's client hung there: nextcloud/desktop#1558).
 */
function passwordAsked(err: unknown): never {
  if (err instanceof ValidationError && Object.hasOwn(err.errors, 'password'))
    return fail('invalid', { key: 'backend.linkPasswordRequired' });
  throw err;
}

/** An item's share link: read it, change it, copy it, open its page in the browser. */
export function linkHandlers(ctx: HandlerContext): HandlersOf<'links'> {
  return {
    'links.get': async (p) => {
      const s = await ctx.account(p);
      const [link, role] = await Promise.all([
        s.client.getLink(p.kind, p.itemId),
        roleForItem(s, ctx.folderIndex(s), p.kind, p.itemId),
      ]);
      return linkOf(link, s.server, role);
    },
    'links.update': async (p) => {
      const s = await ctx.account(p);
      if (p.requirePassword === true && !p.password)
        return fail('invalid', { key: 'backend.linkPassword' });
      const expiresAt =
        p.expiresAt === undefined || p.expiresAt === null
          ? p.expiresAt
          : epochOf(p.expiresAt, 'expiry');
      const link = await s.client
        .updateLink(p.kind, p.itemId, {
          ...(p.tokenAccessible !== undefined ? { token_accessible: p.tokenAccessible } : {}),
          ...(p.requirePassword !== undefined ? { require_password: p.requirePassword } : {}),
          ...(p.password !== undefined ? { password: p.password } : {}),
          ...(expiresAt !== undefined ? { expiresAt } : {}),
        })
        .catch(passwordAsked);
      return linkOf(link, s.server, await roleForItem(s, ctx.folderIndex(s), p.kind, p.itemId));
    },
    'links.copy': async (p) => {
      const s = await ctx.account(p);
      const link = await s.client.getLink(p.kind, p.itemId);
      return { text: linkOf(link, s.server, null).url };
    },
    'links.open': async (p) => {
      const s = await ctx.account(p);
      const link = linkOf(await s.client.getLink(p.kind, p.itemId), s.server, null);
      if (!link.tokenAccessible) return fail('invalid', { key: 'backend.linkOff' });
      await ctx.openUrl(link.url);
      return null;
    },
  };
}
