import { useEffect, useState } from 'react';
import type { Link, ParamsOf } from '../../shared/app-api';
import { strings } from '../strings';

/** A change to a link, as the panel sends it. */
export type LinkChange = Omit<ParamsOf<'links.update'>, 'accountId' | 'kind' | 'itemId'>;

/**
 * A share link's password: whether one is set (the service never returns it, and neither does
 * this), and setting, changing or removing it. `asked`: a change the service refused for want of
 * a password (it requires one for every link); the field opens and the password typed goes with
 * that change.
 */
export function LinkPassword({
  link,
  readOnly,
  asked,
  onChange,
  onCancel,
}: {
  link: Link;
  readOnly: boolean;
  asked: LinkChange | null;
  onChange: (change: LinkChange) => void;
  /** The person gave up on what was asked: the refusal is put away. */
  onCancel: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [password, setPassword] = useState('');
  // A new answer from the service closes the field: what it holds was sent (or is stale).
  useEffect(() => {
    setEditing(false);
    setPassword('');
  }, [link]);
  const open = !readOnly && (editing || asked !== null);
  const set = link.requirePassword;
  return (
    <div className="link-password">
      <p id="link-password-state" className={set ? 'ok-line' : 'muted'}>
        {set ? strings.item.passwordSet : strings.item.passwordNone}
      </p>
      {open ? (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (password) onChange({ ...asked, requirePassword: true, password });
          }}
        >
          <label htmlFor="link-password">{strings.item.linkPassword}</label>
          <input
            id="link-password"
            type="password"
            autoComplete="new-password"
            // Opened by a person's click or the service's question: either way, type here next.
            autoFocus
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <button type="submit" className="primary" disabled={!password}>
            {strings.item.savePassword}
          </button>
          <button
            type="button"
            onClick={() => {
              setEditing(false);
              setPassword('');
              onCancel();
            }}
          >
            {strings.item.cancelPassword}
          </button>
        </form>
      ) : (
        <div className="inline-form">
          <button
            type="button"
            onClick={() => setEditing(true)}
            aria-describedby="link-password-state"
          >
            {set ? strings.item.changePassword : strings.item.addPassword}
          </button>
          {set && (
            <button type="button" onClick={() => onChange({ requirePassword: false })}>
              {strings.item.removePassword}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
