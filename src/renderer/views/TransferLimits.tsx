import { useId, useState } from 'react';
import { LIMIT_KBPS, type Settings, type SettingsPatch } from '../../shared/app-api';
import { strings } from '../strings';

const s = strings.settings;

type Save = (patch: SettingsPatch, after: { onSuccess?: () => void }) => void;

/**
 * Settings' upload and download limits, each saved when its field is left (or on Enter), as the
 * poll interval is. A file of its own beside SettingsView: the limits are one subject.
 */
export function TransferLimits({ stored, save }: { stored: Settings; save: Save }) {
  return (
    <>
      <h2>{s.bandwidth}</h2>
      <LimitField
        label={s.uploadLimit}
        stored={stored.uploadLimitKBps}
        save={(n, after) => save({ uploadLimitKBps: n }, after)}
      />
      <LimitField
        label={s.downloadLimit}
        stored={stored.downloadLimitKBps}
        save={(n, after) => save({ downloadLimitKBps: n }, after)}
      />
    </>
  );
}

function LimitField({
  label,
  stored,
  save,
}: {
  label: string;
  stored: number;
  save: (kbps: number, after: { onSuccess?: () => void }) => void;
}) {
  const id = useId();
  // What the person typed and has not saved yet; null shows the stored value.
  const [typed, setTyped] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);

  const commit = () => {
    if (typed === null) return;
    const n = Number(typed);
    const valid = typed.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= LIMIT_KBPS.max;
    setInvalid(!valid);
    if (!valid) return;
    if (n === stored) return setTyped(null);
    // Kept as typed until the save is through: a refused value is there to be fixed.
    save(n, { onSuccess: () => setTyped(null) });
  };

  return (
    <div className="field">
      <label htmlFor={`${id}-kbps`}>{label}</label>
      <input
        id={`${id}-kbps`}
        className="kbps"
        type="number"
        inputMode="numeric"
        min={0}
        max={LIMIT_KBPS.max}
        step={1}
        value={typed ?? String(stored)}
        aria-invalid={invalid || undefined}
        aria-describedby={`${id}-hint${invalid ? ` ${id}-error` : ''}`}
        onChange={(e) => {
          setTyped(e.target.value);
          setInvalid(false);
        }}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
      />
      <p className="hint" id={`${id}-hint`}>
        {s.limitHint}
      </p>
      {invalid && (
        <p className="error" id={`${id}-error`} role="alert">
          {s.limitInvalid(LIMIT_KBPS.max)}
        </p>
      )}
    </div>
  );
}
