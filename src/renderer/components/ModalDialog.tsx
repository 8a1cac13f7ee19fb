import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { strings } from '../strings';

/**
 * The shell every asking window shares: a modal <dialog> (the browser traps focus and draws the
 * backdrop), named by its heading, described by the caller's explanation, Escape cancels. The
 * dialog is shown modal once it is in the document; closing is the caller's (it unmounts it).
 * With `onSubmit` the heading and body sit in a form, so Enter in a field submits.
 */
export function ModalDialog({
  title,
  describedBy,
  className,
  onCancel,
  onSubmit,
  children,
}: {
  title: ReactNode;
  /** The id of the element that explains what the dialog asks. */
  describedBy?: string;
  /** Added to `dialog`. */
  className?: string;
  onCancel: () => void;
  onSubmit?: (e: FormEvent) => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = `${useId()}-title`;
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const body = (
    <>
      <h2 id={titleId}>{title}</h2>
      {children}
    </>
  );
  return (
    <dialog
      ref={dialog}
      className={className ? `dialog ${className}` : 'dialog'}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onCancel={(e) => {
        // The browser would close it itself; the caller decides (it unmounts the dialog).
        e.preventDefault();
        onCancel();
      }}
    >
      {onSubmit ? <form onSubmit={onSubmit}>{body}</form> : body}
    </dialog>
  );
}

/**
 * A dialog's buttons, as every dialog has them: Cancel first, then the one that acts. Without
 * `onConfirm` the acting button submits the dialog's form.
 */
export function DialogActions({
  onCancel,
  cancelFocused = false,
  confirm,
  danger = false,
  disabled = false,
  onConfirm,
}: {
  onCancel: () => void;
  /** Cancel takes the focus: for dialogs whose action cannot be undone from here. */
  cancelFocused?: boolean;
  confirm: string;
  danger?: boolean;
  disabled?: boolean;
  onConfirm?: () => void;
}) {
  return (
    <div className="actions">
      <button type="button" autoFocus={cancelFocused} onClick={onCancel}>
        {strings.cancel}
      </button>
      <button
        type={onConfirm ? 'button' : 'submit'}
        className={danger ? 'danger primary' : 'primary'}
        disabled={disabled}
        onClick={onConfirm}
      >
        {confirm}
      </button>
    </div>
  );
}
