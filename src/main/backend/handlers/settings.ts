import type { HandlerContext, HandlersOf } from './context';

/** The settings: read them, change some (the backend applies and pushes them). */
export function settingsHandlers(ctx: HandlerContext): HandlersOf<'settings'> {
  return {
    'settings.get': () => ctx.settings(),
    'settings.update': (p) => ctx.updateSettings(p),
  };
}
