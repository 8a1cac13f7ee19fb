import { attentionHandlers } from '../attention';
import { OnDeviceItems } from '../on-device';
import { failOpen } from '../open-failed';
import type { HandlerContext, HandlersOf } from './context';

/**
 * A sync pair's methods: add, list, remove, pause and resume it, retry now, answer its held
 * deletes, open its folder, its selection; its conflicts and problems (attention.ts).
 */
export function pairHandlers(ctx: HandlerContext): HandlersOf<'pairs'> {
  const { pairs } = ctx;
  const onDevice = new OnDeviceItems(pairs);
  return {
    'pairs.add': async (p) => {
      const signed = await ctx.account(p);
      await ctx.settings();
      return pairs.add(signed, p.workspaceId, p.dir, p.excluded);
    },
    'pairs.list': async () => pairs.list(),
    'pairs.remove': async (p) => {
      await pairs.remove(p.pairId);
      return null;
    },
    'pairs.pause': async (p) => {
      await pairs.pause(p.pairId);
      return null;
    },
    'pairs.resume': async (p) => {
      await pairs.resume(p.pairId);
      return null;
    },
    'pairs.retry': (p) => {
      pairs.retry(p.pairId);
      return Promise.resolve(null);
    },
    'pairs.answerDeletes': (p) => {
      pairs.answerDeletes(p.pairId, p.answer);
      return Promise.resolve(null);
    },
    'pairs.openFolder': async (p) => {
      const dir = pairs.dirOf(p.pairId);
      try {
        await ctx.open(dir);
      } catch (err) {
        ctx.log.warn('the file manager did not open it', { err });
        failOpen(err, dir, 'folder');
      }
      return null;
    },
    'pairs.setOnDemand': (p) => {
      onDevice.setMode(p.pairId, p.mode);
      return Promise.resolve(null);
    },
    'pairs.selection': async (p) => ({ excluded: await pairs.selection(p.pairId) }),
    'pairs.setSelection': async (p) => {
      await pairs.setSelection(p.pairId, p.excluded);
      return null;
    },
    ...attentionHandlers({ pairs, open: ctx.open, show: ctx.show }),
  };
}
