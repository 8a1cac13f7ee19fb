import { AppCallError, type KeepAccount } from '../../../shared/app-api';
import type { SignedIn } from '../accounts';
import { appError, fail } from '../errors';
import type { HandlerContext, HandlersOf } from './context';

/** A sign-in of an account whose pairs were kept (signed out): they start again through it. */
async function signedInAgain(ctx: HandlerContext, signed: SignedIn) {
  await ctx.pairs.restartAccount(signed);
  // Pairs not started at this run's start (the account was signed out then) start now.
  await ctx.pairs.restore((id) => Promise.resolve(id === signed.info.id ? signed : null));
  return signed.info;
}

async function signInWithBrowser(
  ctx: HandlerContext,
  server: string,
  keep: KeepAccount | undefined,
) {
  // One person, one sign-in page at a time: an earlier attempt still waiting gives way.
  ctx.browserSignIn.current?.abort(
    new AppCallError(appError('invalid', { key: 'backend.browserReplaced' })),
  );
  const controller = new AbortController();
  ctx.browserSignIn.current = controller;
  try {
    const signed = await ctx.sessions.signInWithBrowser(server, {
      openBrowser: ctx.openUrl,
      signal: controller.signal,
      timeoutMs: ctx.browserSignInTimeoutMs,
      ...(keep ? { keep } : {}),
    });
    return await signedInAgain(ctx, signed);
  } finally {
    if (ctx.browserSignIn.current === controller) ctx.browserSignIn.current = null;
  }
}

/** Signing in (password, token, browser, the demo), the accounts, signing out. */
export function accountHandlers(ctx: HandlerContext): HandlersOf<'accounts'> {
  const { sessions } = ctx;
  return {
    'accounts.storage': () => sessions.storage(),
    'accounts.signIn': async (p) =>
      signedInAgain(ctx, await sessions.signInWithPassword(p.server, p.email, p.password, p.keep)),
    'accounts.signInWithBrowser': (p) => signInWithBrowser(ctx, p.server, p.keep),
    'accounts.signInWithToken': async (p) =>
      signedInAgain(ctx, await sessions.signInWithToken(p.server, p.token, p.keep)),
    'accounts.tryDemo': async () => {
      const demo = ctx.demo;
      if (!demo) return fail('unsupported', { key: 'backend.demoOnlySandbox' });
      return (await sessions.signInWithPassword(demo.server, demo.email, demo.password)).info;
    },
    'accounts.list': () => sessions.list(),
    'accounts.signOut': async (p) => {
      await ctx.pairs.removeForAccount(p.accountId);
      ctx.forgetFolders(p.accountId);
      await sessions.signOut(p.accountId);
      return null;
    },
  };
}
