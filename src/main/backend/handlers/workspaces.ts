import { gather } from '../bounded';
import { fail } from '../errors';
import { viewToService, workspaceOf } from '../map';
import type { HandlerContext, HandlersOf } from './context';

/** An account's workspaces: list, create, rename or recolour, delete (by its exact name). */
export function workspaceHandlers(ctx: HandlerContext): HandlersOf<'workspaces'> {
  return {
    'workspaces.list': async (p) => {
      const s = await ctx.account(p);
      return gather(s.client.listWorkspaces(), workspaceOf);
    },
    'workspaces.create': async (p) => {
      const s = await ctx.account(p);
      const name = p.name.trim();
      if (name === '') return fail('invalid', { key: 'backend.nameWorkspace' });
      const view = p.defaultView === undefined ? undefined : viewToService(p.defaultView);
      if (view === null) return fail('invalid', { key: 'backend.defaultView' });
      const w = await s.client.createWorkspace({
        name,
        ...(p.color !== undefined ? { background_color: p.color } : {}),
        ...(view !== undefined ? { default_view: view } : {}),
      });
      return workspaceOf(w);
    },
    'workspaces.update': async (p) => {
      const s = await ctx.account(p);
      const view = p.defaultView === undefined ? undefined : viewToService(p.defaultView);
      if (view === null) return fail('invalid', { key: 'backend.defaultView' });
      if (p.name !== undefined && p.name.trim() === '')
        return fail('invalid', { key: 'backend.nameWorkspace' });
      const w = await s.client.updateWorkspace(p.workspaceId, {
        ...(p.name !== undefined ? { name: p.name.trim() } : {}),
        ...(p.color !== undefined ? { background_color: p.color } : {}),
        ...(view !== undefined ? { default_view: view } : {}),
      });
      return workspaceOf(w);
    },
    'workspaces.delete': async (p) => {
      const s = await ctx.account(p);
      const w = await s.client.getWorkspace(p.workspaceId);
      // Exactly the name: deleting a workspace deletes everything in it for everyone.
      if (p.confirmName !== w.name) return fail('invalid', { key: 'backend.confirmName' });
      await s.client.deleteWorkspace(p.workspaceId);
      return null;
    },
  };
}
