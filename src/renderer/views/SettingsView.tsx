import { useId, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  POLL_SECONDS,
  type Settings,
  type SettingsPatch,
  type SyncPair,
} from '../../shared/app-api';
import { LANGUAGES } from '../../shared/i18n';
import { useApi } from '../context';
import { useEvent } from '../hooks';
import { strings } from '../strings';
import { readWhole, useSavedOnLeave } from './saved-on-leave';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { Empty } from '../components/Empty';
import { usePairs, usePauseToggle } from './pairs';
import { TransferLimits } from './TransferLimits';
import { ProxyField } from './ProxyField';

const s = strings.settings;
const LANGUAGE_CHOICES = ['system', ...LANGUAGES] as const;

/** The lines of the patterns box that say something (blank lines are layout, not patterns). */
const patternsOf = (text: string) => text.split(/\r?\n/).filter((line) => line.trim() !== '');
const sameLines = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((line, i) => line === b[i]);

/**
 * The person's settings, each saved as soon as it is changed (a switch at once, a number, the
 * proxy or the patterns when the field is left), with one line saying whether the last change was saved.
 */
export function SettingsView() {
  const api = useApi();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.call('settings.get', {}),
  });
  const info = useQuery({ queryKey: ['app.info'], queryFn: () => api.call('app.info', {}) });
  // Changed elsewhere (another window, the app's tray): shown as it is now.
  useEvent('settings', (next) => queryClient.setQueryData(['settings'], next));
  const save = useMutation({
    mutationFn: (patch: SettingsPatch) => api.call('settings.update', patch),
    onSuccess: (next) => queryClient.setQueryData(['settings'], next),
  });

  return (
    <section aria-labelledby="settings-title" className="settings">
      <h1 id="settings-title">{s.title}</h1>
      <p role="status" aria-live="polite" className="save-state">
        {save.isPending ? s.saving : save.isSuccess ? s.saved : ''}
      </p>
      {save.isError && <ErrorMessage error={save.error} title={s.notSaved} />}
      {(settings.isPending || info.isPending) && <Loading />}
      {settings.isError && (
        <ErrorMessage error={settings.error} onRetry={() => void settings.refetch()} />
      )}
      {/* Shown once app.info has answered: Start at login is offered by the desktop app only. */}
      {settings.data && (info.data || info.isError) && (
        <SettingsForm
          stored={settings.data}
          desktop={info.data?.desktop === true}
          save={(patch, after) => save.mutate(patch, after)}
        />
      )}
      <PairsSettings />
    </section>
  );
}

function SettingsForm({
  stored,
  desktop,
  save,
}: {
  stored: Settings;
  desktop: boolean;
  save: (patch: SettingsPatch, after: { onSuccess?: () => void; onSettled?: () => void }) => void;
}) {
  const id = useId();
  /**
   * A switch moves at once and goes back if the save fails. Local state, not the query cache:
   * the cache notifies on a later tick, and a controlled checkbox flips back in between.
   */
  const [switched, setSwitched] = useState<Partial<Settings>>({});
  // What the person typed and has not saved yet; null shows the stored value.
  const [patterns, setPatterns] = useState<string | null>(null);
  /** The patterns being saved: leaving the box for its Save button saves them once, not twice. */
  const sending = useRef<string | null>(null);
  const shown = { ...stored, ...switched };

  const toggle = (key: 'notifications' | 'startAtLogin', value: boolean) => {
    setSwitched((o) => ({ ...o, [key]: value }));
    save({ [key]: value }, { onSettled: () => setSwitched({}) });
  };

  const interval = useSavedOnLeave(
    stored.pollIntervalSeconds,
    (text) => readWhole(text, POLL_SECONDS.min, POLL_SECONDS.max),
    (n, after) => save({ pollIntervalSeconds: n }, after),
  );
  const seconds = interval.typed;
  const secondsError = interval.problem !== null;

  const commitPatterns = () => {
    if (patterns === null) return;
    const lines = patternsOf(patterns);
    if (sameLines(lines, stored.ignorePatterns)) return setPatterns(null);
    const key = JSON.stringify(lines);
    if (sending.current === key) return;
    sending.current = key;
    save(
      { ignorePatterns: lines },
      {
        // Unless the person typed on meanwhile.
        onSuccess: () => setPatterns((p) => (p === patterns ? null : p)),
        onSettled: () => {
          if (sending.current === key) sending.current = null;
        },
      },
    );
  };

  return (
    <div className="card">
      <h2>{s.general}</h2>
      <div className="field">
        <label htmlFor={`${id}-language`}>{s.language}</label>
        <select
          id={`${id}-language`}
          value={shown.language}
          aria-describedby={`${id}-language-hint`}
          onChange={(e) => {
            const language = e.target.value as Settings['language'];
            setSwitched((o) => ({ ...o, language }));
            save({ language }, { onSettled: () => setSwitched({}) });
          }}
        >
          {LANGUAGE_CHOICES.map((choice) => (
            // Each language is named in itself, so a person can find theirs in any window.
            <option key={choice} value={choice} lang={choice === 'system' ? undefined : choice}>
              {s.languages[choice]}
            </option>
          ))}
        </select>
        <p className="hint" id={`${id}-language-hint`}>
          {s.languageHint}
        </p>
      </div>
      <label className="check">
        <input
          type="checkbox"
          checked={shown.notifications}
          aria-describedby={`${id}-notifications-hint`}
          onChange={(e) => toggle('notifications', e.target.checked)}
        />
        {s.notifications}
      </label>
      <p className="hint" id={`${id}-notifications-hint`}>
        {s.notificationsHint}
      </p>
      {desktop && (
        <label className="check">
          <input
            type="checkbox"
            checked={shown.startAtLogin}
            onChange={(e) => toggle('startAtLogin', e.target.checked)}
          />
          {s.startAtLogin}
        </label>
      )}
      <div className="field">
        <label htmlFor={`${id}-seconds`}>{s.pollInterval}</label>
        <input
          id={`${id}-seconds`}
          className="seconds"
          type="number"
          inputMode="numeric"
          min={POLL_SECONDS.min}
          max={POLL_SECONDS.max}
          step={1}
          value={seconds ?? String(stored.pollIntervalSeconds)}
          aria-invalid={secondsError || undefined}
          aria-describedby={`${id}-seconds-hint${secondsError ? ` ${id}-seconds-error` : ''}`}
          {...interval.events}
        />
        <p className="hint" id={`${id}-seconds-hint`}>
          {s.pollIntervalHint(POLL_SECONDS.min, POLL_SECONDS.max)}
        </p>
        {secondsError && (
          <p className="error" id={`${id}-seconds-error`} role="alert">
            {s.pollIntervalInvalid(POLL_SECONDS.min, POLL_SECONDS.max)}
          </p>
        )}
      </div>
      <TransferLimits stored={stored} save={save} />
      <h2>{s.network}</h2>
      <ProxyField stored={stored.proxy} save={save} />
      <h2>{s.ignore}</h2>
      <form
        className="field"
        onSubmit={(e) => {
          e.preventDefault();
          commitPatterns();
        }}
      >
        <label htmlFor={`${id}-patterns`}>{s.ignoreLabel}</label>
        <textarea
          id={`${id}-patterns`}
          className="patterns"
          rows={6}
          spellCheck={false}
          value={patterns ?? stored.ignorePatterns.join('\n')}
          aria-describedby={`${id}-patterns-hint`}
          onChange={(e) => setPatterns(e.target.value)}
          onBlur={commitPatterns}
        />
        <p className="hint" id={`${id}-patterns-hint`}>
          {s.ignoreHint}
        </p>
        <div className="actions">
          <button type="submit">{s.ignoreSave}</button>
        </div>
      </form>
    </div>
  );
}

function PairsSettings() {
  const pairs = usePairs();
  return (
    <div className="card">
      <h2>{s.pairs}</h2>
      {pairs.isPending && <Loading />}
      {pairs.isError && <ErrorMessage error={pairs.error} onRetry={() => void pairs.refetch()} />}
      {pairs.data?.length === 0 && <Empty>{s.noPairs}</Empty>}
      {pairs.data && pairs.data.length > 0 && (
        <ul className="pair-settings">
          {pairs.data.map((p) => (
            <PairPause key={p.id} pair={p} />
          ))}
        </ul>
      )}
    </div>
  );
}

/** One pair's Pause/Resume, as on Status. */
function PairPause({ pair }: { pair: SyncPair }) {
  const toggle = usePauseToggle(pair);
  return (
    <li>
      <div>
        <strong>{pair.workspaceName}</strong>{' '}
        <span className="muted">— {strings.status.states[pair.status.state]}</span>
        <p className="muted path">{strings.status.syncedTo(pair.dir)}</p>
      </div>
      <button
        type="button"
        aria-label={pair.paused ? s.resume(pair.workspaceName) : s.pause(pair.workspaceName)}
        onClick={() => toggle.mutate()}
        disabled={toggle.isPending}
      >
        {pair.paused ? strings.status.resume : strings.status.pause}
      </button>
      {toggle.isError && <ErrorMessage error={toggle.error} />}
    </li>
  );
}
