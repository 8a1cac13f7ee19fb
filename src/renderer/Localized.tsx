import type { ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { resolveLanguage } from '../shared/i18n';
import { useApi } from './context';
import { setFormatLocale } from './format';
import { useEvent } from './hooks';
import { setLanguage } from './strings';

/**
 * The window's language: the setting's (Settings, Language), else the browser's preferred
 * languages (in the app, Chromium's follow the OS's). Switched before the tree renders, so no
 * view shows a mix.
 */
export function Localized({ children }: { children: () => ReactNode }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.call('settings.get', {}),
  });
  useEvent('settings', (next) => queryClient.setQueryData(['settings'], next));
  // Nothing for the moment the setting takes to arrive: no English flash before German.
  if (settings.isPending) return null;
  const lang = resolveLanguage(settings.data?.language, navigator.languages);
  // Both do nothing when the language is already theirs (an English window on a German
  // system still takes English dates).
  setLanguage(lang);
  setFormatLocale(lang);
  document.documentElement.lang = lang;
  // Made anew at each render (not an element handed down, which React would skip), so the
  // whole tree renders again in the new language, its state kept. Memoized rows (Browse's)
  // keep their words until they render again.
  return children();
}
