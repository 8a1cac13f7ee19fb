import { useId } from 'react';
import type { SettingsPatch } from '../../shared/app-api';
import { checkProxyUrl, type ProxyProblem } from '../../shared/proxy-url';
import { strings } from '../strings';
import { useSavedOnLeave } from './saved-on-leave';

const s = strings.settings;

/**
 * The proxy every request goes through, saved when the field is left (or on Enter) as the poll
 * interval is. A URL the backend would refuse is said at the field and not sent: the same check
 * (`shared/proxy-url.ts`) as the backend's, so the two never disagree.
 */
export function ProxyField({
  stored,
  save,
}: {
  stored: string;
  save: (patch: SettingsPatch, after: { onSuccess?: () => void }) => void;
}) {
  const id = useId();
  const { typed, problem, events } = useSavedOnLeave(
    stored,
    (text) => {
      const value = text.trim();
      const wrong: ProxyProblem | null = checkProxyUrl(value);
      return wrong ? { ok: false, problem: wrong } : { ok: true, value };
    },
    (proxy, after) => save({ proxy }, after),
  );

  return (
    <div className="field">
      <label htmlFor={`${id}-proxy`}>{s.proxy}</label>
      <input
        id={`${id}-proxy`}
        className="proxy"
        type="text"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder={s.proxyPlaceholder}
        value={typed ?? stored}
        aria-invalid={problem !== null || undefined}
        aria-describedby={`${id}-proxy-hint${problem ? ` ${id}-proxy-error` : ''}`}
        {...events}
      />
      <p className="hint" id={`${id}-proxy-hint`}>
        {s.proxyHint}
      </p>
      {problem && (
        <p className="error" id={`${id}-proxy-error`} role="alert">
          {s.proxyInvalid(problem)}
        </p>
      )}
    </div>
  );
}
