import { useState, type ChangeEvent, type KeyboardEvent } from 'react';

/** What a field's text reads as: a value to save, or the problem to say at the field. */
export type Reading<T, P> = { ok: true; value: T } | { ok: false; problem: P };

/**
 * A setting typed into a field and saved when the field is left (or on Enter): the poll
 * interval, the transfer limits and the proxy. What the person typed stays shown (and is not
 * sent) while it reads as a problem, and until its save is through: a refused value is there to
 * be fixed. A value equal to the stored one is not sent again.
 */
export function useSavedOnLeave<T, P>(
  stored: T,
  read: (typed: string) => Reading<T, P>,
  save: (value: T, after: { onSuccess?: () => void }) => void,
) {
  // What the person typed and has not saved yet; null shows the stored value.
  const [typed, setTyped] = useState<string | null>(null);
  const [problem, setProblem] = useState<P | null>(null);

  const commit = () => {
    if (typed === null) return;
    const reading = read(typed);
    setProblem(reading.ok ? null : reading.problem);
    if (!reading.ok) return;
    if (reading.value === stored) return setTyped(null);
    // Cleared only if nothing new was typed while it was being saved.
    save(reading.value, { onSuccess: () => setTyped((t) => (t === typed ? null : t)) });
  };

  return {
    typed,
    problem,
    /** For the input: typing clears the problem said; leaving or Enter saves. */
    events: {
      onChange: (e: ChangeEvent<HTMLInputElement>) => {
        setTyped(e.target.value);
        setProblem(null);
      },
      onBlur: commit,
      onKeyDown: (e: KeyboardEvent<HTMLInputElement>) => {
        if (e.key === 'Enter') commit();
      },
    },
  };
}

/** A whole number from `min` to `max`, or the problem `true` (the field says the range). */
export function readWhole(text: string, min: number, max: number): Reading<number, true> {
  const n = Number(text);
  const valid = text.trim() !== '' && Number.isInteger(n) && n >= min && n <= max;
  return valid ? { ok: true, value: n } : { ok: false, problem: true };
}
