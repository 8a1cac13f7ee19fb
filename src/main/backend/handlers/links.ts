import { fail } from '../errors';
import { linkOf } from '../map';
import type { HandlerContext, HandlersOf } from './context';
import { epochOf } from './instants';
import { roleForItem } from './roles';

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
      const link = await s.client.updateLink(p.kind, p.itemId, {
        ...(p.tokenAccessible !== undefined ? { token_accessible: p.tokenAccessible } : {}),
        ...(p.requirePassword !== undefined ? { require_password: p.requirePassword } : {}),
        ...(p.password !== undefined ? { password: p.password } : {}),
        ...(expiresAt !== undefined ? { expiresAt } : {}),
      });
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
