import { useCallback, useEffect, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEvent } from './hooks';
import { useAccount, useApi } from './context';
import type { BrowseTarget, Navigate, View } from './navigation';
import { strings } from './strings';
import { Sidebar } from './Sidebar';
import { StatusView } from './views/StatusView';
import { BrowseView } from './views/BrowseView';
import { ActivityView } from './views/ActivityView';
import { WorkspacesView } from './views/WorkspacesView';
import { SettingsView } from './views/SettingsView';
import { AboutView } from './views/AboutView';
import { ErrorMessage } from './components/ErrorMessage';

const emptyTarget: BrowseTarget = { workspaceId: null, folderId: null, selected: null };

/** The signed-in window: the sidebar and the one view it selects. */
export function Shell({
  onSignedOut,
  onAddAccount,
  setupFor = null,
}: {
  onSignedOut: () => void;
  onAddAccount: () => void;
  /** An account just added: Status opens the setup form for it. */
  setupFor?: string | null;
}) {
  const api = useApi();
  const account = useAccount();
  const [view, setView] = useState<View>('status');
  const [target, setTarget] = useState<BrowseTarget>(emptyTarget);
  const queryClient = useQueryClient();
  // Activity on the service means listings may have changed: what is on screen is fetched
  // again, the rest when next shown.
  useEvent('activity', ({ accountId }) => {
    if (accountId !== account.id) return;
    void queryClient.invalidateQueries({ queryKey: ['folders.contents', account.id] });
    void queryClient.invalidateQueries({ queryKey: ['comments', account.id] });
  });
  const signOut = useMutation({
    mutationFn: () => api.call('accounts.signOut', { accountId: account.id }),
    onSuccess: onSignedOut,
  });

  // A new view moves focus to its content, so keyboard and screen-reader users start there
  // (not on the first render: the page's own focus stays where the browser put it).
  const mainRef = useRef<HTMLElement>(null);
  const firstView = useRef(true);
  useEffect(() => {
    if (firstView.current) {
      firstView.current = false;
      return;
    }
    mainRef.current?.focus();
  }, [view]);

  const navigate = useCallback(
    ((next: View, where?: BrowseTarget) => {
      if (where) setTarget(where);
      setView(next);
    }) as Navigate,
    [],
  );

  // The desktop app shows what a notification or a tray entry is about.
  useEvent('show', (target) => {
    if (target.kind === 'item' && target.accountId === account.id) {
      navigate('browse', {
        workspaceId: target.workspaceId,
        folderId: null,
        selected: { kind: target.itemKind, id: target.itemId, name: target.name },
      });
    } else if (target.kind === 'activity') navigate('activity');
    else if (target.kind === 'pair') navigate('status');
  });

  return (
    <div className="shell">
      <Sidebar
        view={view}
        onSelect={(v) => navigate(v)}
        onSignOut={() => signOut.mutate()}
        signingOut={signOut.isPending}
        onAddAccount={onAddAccount}
      />
      <main className="content" id="main" tabIndex={-1} ref={mainRef}>
        {signOut.isError && <ErrorMessage error={signOut.error} title={strings.nav.signOut} />}
        {view === 'status' && <StatusView setupFor={setupFor} />}
        {view === 'browse' && <BrowseView target={target} onTarget={setTarget} />}
        {view === 'activity' && <ActivityView navigate={navigate} />}
        {view === 'workspaces' && <WorkspacesView navigate={navigate} />}
        {view === 'settings' && <SettingsView />}
        {view === 'about' && <AboutView />}
      </main>
    </div>
  );
}
