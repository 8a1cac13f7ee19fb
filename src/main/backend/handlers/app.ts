import { mkdir } from 'node:fs/promises';
import { aboutFacts, diagnosticsText } from '../diagnostics';
import { failOpen } from '../open-failed';
import type { HandlerContext, HandlersOf } from './context';

/** The app's methods: what it is (the sign-in view, About), Copy diagnostics, Open logs. */
export function appHandlers(ctx: HandlerContext): HandlersOf<'app'> {
  return {
    'app.info': async () => {
      const os = process.platform;
      return {
        name: 'Workspace Sync',
        version: ctx.version(),
        platform: !ctx.desktop ? 'web' : os === 'darwin' || os === 'win32' ? os : 'linux',
        demo: !!ctx.demo,
        desktop: ctx.desktop,
        ...(ctx.server !== undefined ? { server: ctx.server } : {}),
      };
    },
    'app.about': async () => aboutFacts(ctx.version(), ctx.pairs.list()),
    'app.diagnostics': async (p) => {
      const pairs = ctx.pairs.list();
      const servers = new Map((await ctx.sessions.list()).map((a) => [a.id, a.server]));
      const secrets = ctx.demo ? [ctx.demo.password] : [];
      const about = aboutFacts(ctx.version(), pairs);
      return {
        text: diagnosticsText({ about, pairs, servers, secrets, includeNames: p.includeNames }),
      };
    },
    'app.openLogs': async () => {
      const dir = ctx.logsDir;
      await mkdir(dir, { recursive: true });
      try {
        await ctx.open(dir);
      } catch (err) {
        ctx.log.warn('the file manager did not open it', { err });
        failOpen(err, dir, 'logs');
      }
      return null;
    },
  };
}
