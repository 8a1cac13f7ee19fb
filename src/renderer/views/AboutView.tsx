import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { API_GLOBAL } from '../../shared/app-api';
import { useApi } from '../context';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { usePairs } from './pairs';

/**
 * About: the version, this computer's system, the runtimes and each synced folder's engine
 * state; Open logs (where "see the log" sends people); Copy diagnostics for a support request,
 * names left out unless the person ticks them in.
 */
export function AboutView() {
  const api = useApi();
  const about = useQuery({ queryKey: ['app.about'], queryFn: () => api.call('app.about', {}) });
  // The states as Status shows them, kept current by the pushes.
  const pairs = usePairs();
  const [includeNames, setIncludeNames] = useState(false);
  const openLogs = useMutation({ mutationFn: () => api.call('app.openLogs', {}) });
  const copy = useMutation({
    mutationFn: async (names: boolean) => {
      const { text } = await api.call('app.diagnostics', { includeNames: names });
      try {
        await navigator.clipboard.writeText(text);
      } catch (error) {
        // Under the desktop app the host has put it on the clipboard already.
        if (!(API_GLOBAL in window)) throw error;
      }
      return text;
    },
  });

  return (
    <section aria-labelledby="about-title" className="about">
      <h1 id="about-title">{strings.about.title}</h1>
      {about.isPending && <Loading />}
      {about.isError && <ErrorMessage error={about.error} onRetry={() => void about.refetch()} />}
      {about.data && (
        <dl className="facts">
          <dt>{strings.about.version}</dt>
          <dd>{about.data.version}</dd>
          <dt>{strings.about.system}</dt>
          <dd>{about.data.os}</dd>
          <dt>{strings.about.node}</dt>
          <dd>{about.data.node}</dd>
          <dt>{strings.about.electron}</dt>
          <dd>{about.data.electron ?? strings.about.noElectron}</dd>
        </dl>
      )}

      <h2>{strings.about.pairs}</h2>
      {pairs.data && pairs.data.length === 0 && <p className="muted">{strings.status.noPairs}</p>}
      {pairs.data && pairs.data.length > 0 && (
        <ul className="about-pairs">
          {pairs.data.map((p) => (
            <li key={p.id}>
              {strings.about.pairState(p.workspaceName, strings.status.states[p.status.state])}
            </li>
          ))}
        </ul>
      )}

      <h2>{strings.about.logs}</h2>
      <p className="hint">{strings.about.logsHint}</p>
      <button type="button" onClick={() => openLogs.mutate()} disabled={openLogs.isPending}>
        {strings.about.openLogs}
      </button>
      {openLogs.isError && <ErrorMessage error={openLogs.error} />}

      <h2>{strings.about.diagnostics}</h2>
      <p className="hint" id="diagnostics-hint">
        {strings.about.diagnosticsHint}
      </p>
      <label className="check">
        <input
          type="checkbox"
          checked={includeNames}
          onChange={(e) => {
            setIncludeNames(e.target.checked);
            // What was copied no longer matches the choice.
            copy.reset();
          }}
        />
        {strings.about.includeNames}
      </label>
      <div>
        <button
          type="button"
          className="primary"
          aria-describedby="diagnostics-hint"
          disabled={copy.isPending}
          onClick={() => copy.mutate(includeNames)}
        >
          {strings.about.copy}
        </button>
      </div>
      <p role="status" aria-live="polite">
        {copy.isSuccess && strings.about.copied}
      </p>
      {copy.isError && <ErrorMessage error={copy.error} title={strings.about.copyFailed} />}
      {copy.data && (
        <details className="diagnostics-text">
          <summary>{strings.about.whatWasCopied}</summary>
          <pre tabIndex={0} aria-label={strings.about.whatWasCopied}>
            {copy.data}
          </pre>
        </details>
      )}
    </section>
  );
}
