import { useEffect, useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';

/** How long Undo is offered: long enough to read the line and change one's mind. */
export const UNDO_MS = 10_000;

/**
 * A line saying what was just done, with Undo for ~10 s (issue 39): the act itself was not
 * delayed (it is done, and true already), Undo reverses it. Once undone, the line says so.
 */
export function UndoNotice({
  text,
  undoLabel,
  onUndo,
  onDone,
}: {
  text: string;
  /** The Undo button's full name: what it puts back. */
  undoLabel: string;
  /** Reverses the act; resolves to what the line then says. */
  onUndo: () => Promise<string>;
  /** The notice's time is over (or it was undone and read): its owner drops it. */
  onDone: () => void;
}) {
  const [said, setSaid] = useState<string | null>(null);
  // The time stands still while the pointer or the focus is on the notice (a person reading it
  // or about to press Undo must not see it vanish: WCAG's "timing adjustable").
  const [held, setHeld] = useState(false);
  const line = useRef<HTMLParagraphElement>(null);
  const undo = useMutation({
    mutationFn: onUndo,
    onSuccess: (words) => {
      setSaid(words);
      // The Undo button goes: the focus stays on the notice, on what it says now.
      line.current?.focus();
    },
  });
  // Undo is offered for a while, not forever; a running undo is not cut short.
  useEffect(() => {
    if (held || undo.isPending || undo.isError) return;
    const timer = setTimeout(onDone, UNDO_MS);
    return () => clearTimeout(timer);
  }, [onDone, held, undo.isPending, undo.isError, said]);
  return (
    <div
      className="undo-notice"
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setHeld(false);
      }}
    >
      <p role="status" aria-live="polite" ref={line} tabIndex={-1}>
        {said ?? text}
      </p>
      {said === null && (
        <button
          type="button"
          aria-label={undoLabel}
          disabled={undo.isPending}
          onClick={() => undo.mutate()}
        >
          {strings.undo.undo}
        </button>
      )}
      {undo.isError && <ErrorMessage error={undo.error} />}
    </div>
  );
}
