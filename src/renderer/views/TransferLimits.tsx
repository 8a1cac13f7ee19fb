import { useId } from 'react';
import { LIMIT_KBPS, type Settings, type SettingsPatch } from '../../shared/app-api';
import { strings } from '../strings';
import { readWhole, useSavedOnLeave } from './saved-on-leave';

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
  const { typed, problem, events } = useSavedOnLeave(
    stored,
    (text) => readWhole(text, 0, LIMIT_KBPS.max),
    save,
  );
  const invalid = problem !== null;

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
        {...events}
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
