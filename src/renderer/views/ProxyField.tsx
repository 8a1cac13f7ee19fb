import { useId, useState } from 'react';
import type { SettingsPatch } from '../../shared/app-api';
import { checkProxyUrl, type ProxyProblem } from '../../shared/proxy-url';
import { strings } from '../strings';

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
  // What the person typed and has not saved yet; null shows the stored value.
  const [typed, setTyped] = useState<string | null>(null);
  const [problem, setProblem] = useState<ProxyProblem | null>(null);

  const commit = () => {
    if (typed === null) return;
    const value = typed.trim();
    const wrong = checkProxyUrl(value);
    setProblem(wrong);
    if (wrong) return;
    if (value === stored) return setTyped(null);
    // Kept as typed until the save is through: a refused value is there to be fixed.
    save({ proxy: value }, { onSuccess: () => setTyped((t) => (t === typed ? null : t)) });
  };

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
        onChange={(e) => {
          setTyped(e.target.value);
          setProblem(null);
        }}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
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
