import { useAccount } from './context';
import type { View } from './navigation';
import { strings } from './strings';

const views: View[] = ['status', 'browse', 'activity', 'workspaces', 'settings'];

export function Sidebar({
  view,
  onSelect,
  onSignOut,
  signingOut,
}: {
  view: View;
  onSelect: (view: View) => void;
  onSignOut: () => void;
  signingOut: boolean;
}) {
  const account = useAccount();
  return (
    <nav className="sidebar" aria-label={strings.nav.label}>
      <p className="brand">{strings.appName}</p>
      <ul>
        {views.map((v) => (
          <li key={v}>
            <button
              type="button"
              className="nav-button"
              aria-current={v === view ? 'page' : undefined}
              onClick={() => onSelect(v)}
            >
              {strings.nav[v]}
            </button>
          </li>
        ))}
      </ul>
      <div className="account">
        <p className="account-name">{strings.nav.signedInAs(account.name, account.email)}</p>
        <button type="button" onClick={onSignOut} disabled={signingOut}>
          {strings.nav.signOut}
        </button>
      </div>
    </nav>
  );
}
