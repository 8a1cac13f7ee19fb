import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useEvent } from './hooks';
import { useAccount } from './context';
import type { BrowseTarget, Navigate, View } from './navigation';
import { strings } from './strings';
import { Sidebar } from './Sidebar';
import { StatusView } from './views/StatusView';
import { BrowseView } from './views/BrowseView';
import { ActivityView } from './views/ActivityView';
import { WorkspacesView } from './views/WorkspacesView';
import { SettingsView } from './views/SettingsView';
import { MembersView } from './views/MembersView';
import { AboutView } from './views/AboutView';
import { TrashView } from './views/TrashView';
import { Menu } from 'lucide-react';

const emptyTarget: BrowseTarget = { workspaceId: null, folderId: null, selected: null };

/** The signed-in window: the sidebar and the one view it selects. */
export function Shell({
  onSignedOut,
  onAddAccount,
  setupFor = null,
  switchedOn = null,
  onSwitchAccount,
}: {
  onSignedOut: () => void;
  onAddAccount: () => void;
  /** An account just added: Status opens the setup form for it. */
  setupFor?: string | null;
  /** Shown after a switch of accounts: the view it happened on, for the other account. */
  switchedOn?: View | null;
  /** Show another signed-in account (App keeps the choice); `view` stays the view shown. */
  onSwitchAccount: (accountId: string, view: View) => void;
}) {
  const account = useAccount();
  const [view, setView] = useState<View>(switchedOn ?? 'status');
  const [target, setTarget] = useState<BrowseTarget>(emptyTarget);
  /** The workspace whose members show, a page of Workspaces; null: the list of workspaces. */
  const [membersOf, setMembersOf] = useState<number | null>(null);
  // A narrow window (styles.css) hides the sidebar behind a menu button; open, it lies over the
  // view until a view is chosen, Escape or the button again.
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const queryClient = useQueryClient();
  // Activity on the service means listings may have changed: what is on screen is fetched
  // again, the rest when next shown.
  useEvent('activity', ({ accountId }) => {
    if (accountId !== account.id) return;
    void queryClient.invalidateQueries({ queryKey: ['folders.contents', account.id] });
    void queryClient.invalidateQueries({ queryKey: ['comments', account.id] });
    void queryClient.invalidateQueries({ queryKey: ['members', account.id] });
  });
  // A new view moves focus to its content, so keyboard and screen-reader users start there
  // (not on the first render: the page's own focus stays where the browser put it).
  const mainRef = useRef<HTMLElement>(null);
  // The view last given the focus: compared, not a first-run flag, since an effect may run twice
  // for one view (StrictMode runs it again), and a focused view on load would put the first Tab
  // past "Skip to content" and the menu.
  const focusedView = useRef<string | null>(switchedOn === null ? `${view}|${membersOf}` : null);
  // After a switch of accounts the switcher is gone with the old shell: focus goes to the view.
  useEffect(() => {
    const shown = `${view}|${membersOf}`;
    if (focusedView.current === shown) return;
    focusedView.current = shown;
    mainRef.current?.focus();
  }, [view, membersOf]);

  const navigate = useCallback(
    ((next: View | 'members', where?: BrowseTarget | number) => {
      if (next === 'members') {
        setMembersOf(where as number);
        setView('workspaces');
        return;
      }
      setMembersOf(null);
      if (where !== undefined) setTarget(where as BrowseTarget);
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
    <div
      className={menuOpen ? 'shell menu-open' : 'shell'}
      // Escape closes the open menu, from its button or inside it.
      onKeyDown={(e) => {
        if (!menuOpen || e.key !== 'Escape') return;
        setMenuOpen(false);
        menuButton.current?.focus();
      }}
    >
      {/* The first Tab stop: past the menu to the view (not a fragment link: the address's
          fragment carries the bridge's secret on load, and the view is focused, not scrolled to). */}
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          mainRef.current?.focus();
        }}
      >
        {strings.layout.skip}
      </a>
      <header className="topbar">
        <button
          ref={menuButton}
          type="button"
          className="icon-button menu-button"
          aria-expanded={menuOpen}
          aria-controls="sidebar"
          aria-label={menuOpen ? strings.layout.closeMenu : strings.layout.openMenu}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <Menu size={20} aria-hidden="true" focusable="false" />
        </button>
        <span className="brand">{strings.appName}</span>
      </header>
      <Sidebar
        view={view}
        onSelect={(v) => {
          setMenuOpen(false);
          navigate(v);
        }}
        onSignedOut={onSignedOut}
        onAddAccount={onAddAccount}
        onSwitchAccount={(id) => onSwitchAccount(id, view)}
      />
      <main className="content" id="main" tabIndex={-1} ref={mainRef}>
        {view === 'status' && <StatusView setupFor={setupFor} />}
        {view === 'browse' && (
          <BrowseView
            target={target}
            onTarget={setTarget}
            onMembers={(workspaceId) => navigate('members', workspaceId)}
          />
        )}
        {view === 'activity' && <ActivityView navigate={navigate} />}
        {view === 'workspaces' && membersOf === null && <WorkspacesView navigate={navigate} />}
        {view === 'workspaces' && membersOf !== null && (
          <MembersView key={membersOf} workspaceId={membersOf} />
        )}
        {view === 'trash' && <TrashView />}
        {view === 'settings' && <SettingsView />}
        {view === 'about' && <AboutView />}
      </main>
    </div>
  );
}
