import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { Account, KeepAccount } from '../../shared/app-api';
import { useApi } from '../context';
import { strings } from '../strings';
import { Field } from '../components/Field';
import { ErrorMessage } from '../components/ErrorMessage';

/** Where the account is kept: only said where the store cannot keep it (no keychain). */
type Keep = { keep?: KeepAccount };

type Attempt =
  | ({ way: 'password'; server: string; email: string; password: string } & Keep)
  | ({ way: 'browser'; server: string } & Keep)
  | ({ way: 'token'; server: string; token: string } & Keep)
  | { way: 'demo' };

/**
 * Signing in: the first account (the window's gate), or another one while signed in ("Add
 * account", with `onCancel` back to the window).
 */
export function SignIn({
  onSignedIn,
  onCancel,
  again,
}: {
  onSignedIn: (account: Account) => void;
  onCancel?: () => void;
  /** An account the service signed out: its server and email are filled in. */
  again?: Account;
}) {
  const api = useApi();
  const [server, setServer] = useState(again?.server ?? '');
  const [email, setEmail] = useState(again?.email ?? '');
  const [password, setPassword] = useState('');
  const [token, setToken] = useState('');
  const [missingServer, setMissingServer] = useState(false);
  /** The service's sign-in page of a browser sign-in under way (a link in case no tab opened). */
  const [browserPage, setBrowserPage] = useState<string | null>(null);
  /** The browser sign-in this window waits for (a number per attempt), 0 when none. */
  const waitingForBrowser = useRef(0);
  const attempts = useRef(0);
  const info = useQuery({ queryKey: ['app.info'], queryFn: () => api.call('app.info', {}) });
  const storage = useQuery({
    queryKey: ['accounts.storage'],
    queryFn: () => api.call('accounts.storage', {}),
  });
  /** Without a keychain: this session only (nothing on disk) unless the person picks the file. */
  const [keepChoice, setKeepChoice] = useState<'session' | 'file'>('session');
  const keep: Keep = storage.data && !storage.data.remembers ? { keep: keepChoice } : {};
  const plainFile = storage.data?.file ?? null;

  // `ui --server URL`: the server given is filled in, unless the person typed one already.
  const givenServer = info.data?.server;
  useEffect(() => {
    if (givenServer && !again) setServer((typed) => typed || givenServer);
  }, [givenServer, again]);

  // The backend asks for its sign-in page to be shown: a new tab, only for a browser sign-in
  // this window started, and only for a web address (never javascript: or file:).
  useEffect(
    () =>
      api.on('open-url', ({ url }) => {
        if (waitingForBrowser.current === 0 || !isWebUrl(url)) return;
        setBrowserPage(url);
        window.open(url, '_blank', 'noopener');
      }),
    [api],
  );

  const signIn = useMutation({
    mutationFn: (a: Attempt): Promise<Account> => {
      switch (a.way) {
        case 'password':
          return api.call('accounts.signIn', a);
        case 'browser': {
          const attempt = ++attempts.current;
          waitingForBrowser.current = attempt;
          const params = { server: a.server, ...(a.keep ? { keep: a.keep } : {}) };
          return api.call('accounts.signInWithBrowser', params).finally(() => {
            if (waitingForBrowser.current !== attempt) return;
            waitingForBrowser.current = 0;
            setBrowserPage(null);
          });
        }
        case 'token':
          return api.call('accounts.signInWithToken', a);
        case 'demo':
          return api.call('accounts.tryDemo', {});
      }
    },
    onSuccess: onSignedIn,
  });
  const browserPending = signIn.isPending && signIn.variables.way === 'browser';

  /** Stops waiting here; the backend gives up by itself (or when a new attempt starts). */
  const cancelBrowser = () => {
    waitingForBrowser.current = 0;
    setBrowserPage(null);
    signIn.reset();
  };

  /** The ways that need a server say so before sending anything. */
  const withServer = (make: (server: string) => Attempt) => {
    const s = server.trim();
    setMissingServer(!s);
    if (s) signIn.mutate(make(s));
  };

  const submitPassword = (e: FormEvent) => {
    e.preventDefault();
    withServer((s) => ({ way: 'password', server: s, email: email.trim(), password, ...keep }));
  };
  const submitBrowser = (e: FormEvent) => {
    e.preventDefault();
    withServer((s) => ({ way: 'browser', server: s, ...keep }));
  };

  // Browser sign-in is the first action, as the README recommends (the service's own page, its
  // single sign-on and second factors); email and password follow as the alternative.
  return (
    <main className="sign-in" id="main">
      <h1>
        {again
          ? strings.nav.signInAgain
          : onCancel
            ? strings.accounts.addTitle
            : strings.signIn.title}
      </h1>
      <p>{strings.signIn.intro}</p>
      {keep.keep && (
        // Every way below keeps the account where this says: asked before anything is typed.
        <fieldset className="keep-account" disabled={signIn.isPending}>
          <legend>{strings.signIn.keepLegend}</legend>
          <p className="hint">{strings.signIn.noKeychain}</p>
          <KeepOption
            value="session"
            chosen={keepChoice}
            onChoose={setKeepChoice}
            label={strings.signIn.keepSession}
            hint={strings.signIn.keepSessionHint}
          />
          {plainFile && (
            <KeepOption
              value="file"
              chosen={keepChoice}
              onChoose={setKeepChoice}
              label={strings.signIn.keepFile}
              hint={strings.signIn.keepFileHint(plainFile)}
            />
          )}
        </fieldset>
      )}
      <form onSubmit={submitBrowser} aria-busy={signIn.isPending}>
        <Field
          label={strings.signIn.server}
          // A text field, not type=url: the browser's own check refuses a bare host, which the
          // backend completes (https:// added, http:// only for this computer, the API path found).
          type="text"
          inputMode="url"
          spellCheck={false}
          autoCapitalize="off"
          name="server"
          autoComplete="url"
          placeholder={strings.signIn.serverPlaceholder}
          hint={strings.signIn.serverHint}
          value={server}
          onChange={(e) => setServer(e.target.value)}
          aria-invalid={missingServer || undefined}
          required
        />
        <div aria-live="assertive">
          {missingServer && (
            <p className="error" role="alert">
              {strings.signIn.serverRequired}
            </p>
          )}
          {signIn.isError && <ErrorMessage error={signIn.error} title={strings.signIn.failed} />}
        </div>
        <button
          type="submit"
          className="primary"
          disabled={signIn.isPending}
          aria-describedby="browser-hint"
        >
          {strings.signIn.withBrowser}
        </button>
        <p className="hint" id="browser-hint">
          {strings.signIn.withBrowserHint}
        </p>
        {browserPending && (
          <div role="status" className="browser-waiting">
            {/* In a browser the tab opens only once the server answered: no tab is said before. */}
            <p>
              {browserPage || info.data?.desktop
                ? strings.signIn.browserWaiting
                : strings.signIn.browserReaching}
            </p>
            {browserPage && (
              <a href={browserPage} target="_blank" rel="noopener noreferrer">
                {strings.signIn.browserOpenAgain}
              </a>
            )}
            <button type="button" onClick={cancelBrowser}>
              {strings.signIn.browserCancel}
            </button>
          </div>
        )}
      </form>
      <p className="separator">{strings.signIn.orPassword}</p>
      <form onSubmit={submitPassword} aria-busy={signIn.isPending} className="password-sign-in">
        <Field
          label={strings.signIn.email}
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
        />
        <Field
          label={strings.signIn.password}
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
        <button type="submit" disabled={signIn.isPending}>
          {signIn.isPending && signIn.variables.way === 'password'
            ? strings.signIn.submitting
            : strings.signIn.submit}
        </button>
      </form>
      <div className="alternatives">
        {info.data?.demo && (
          <>
            <button
              type="button"
              disabled={signIn.isPending}
              aria-describedby="demo-hint"
              onClick={() => signIn.mutate({ way: 'demo' })}
            >
              {strings.signIn.demo}
            </button>
            <p className="hint" id="demo-hint">
              {strings.signIn.demoHint}
            </p>
          </>
        )}
      </div>
      <details className="advanced">
        <summary>{strings.signIn.advanced}</summary>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            withServer((s) => ({ way: 'token', server: s, token: token.trim(), ...keep }));
          }}
        >
          <Field
            label={strings.signIn.token}
            type="password"
            name="token"
            autoComplete="off"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            required
          />
          <button type="submit" disabled={signIn.isPending}>
            {strings.signIn.tokenSubmit}
          </button>
        </form>
      </details>
      {onCancel && (
        <p className="separator">
          <button type="button" onClick={onCancel}>
            {strings.cancel}
          </button>
        </p>
      )}
    </main>
  );
}

/** One way to keep the account: a radio button and, under it, the hint that describes it. */
function KeepOption<V extends string>({
  value,
  chosen,
  onChoose,
  label,
  hint,
}: {
  value: V;
  chosen: V;
  onChoose: (value: V) => void;
  label: string;
  hint: string;
}) {
  const hintId = `keep-${value}-hint`;
  return (
    <>
      <label className="check">
        <input
          type="radio"
          name="keep"
          value={value}
          checked={chosen === value}
          onChange={() => onChoose(value)}
          aria-describedby={hintId}
        />
        {label}
      </label>
      <p className="hint" id={hintId}>
        {hint}
      </p>
    </>
  );
}

function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
