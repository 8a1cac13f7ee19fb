import { useEffect, useState } from 'react';
import { dateFieldPattern, formatDateField, parseDateField } from '../date-field';
import { formatLocale } from '../format';
import { strings } from '../strings';

/**
 * A day typed as the window's language writes it (German: 15.03.2026), not a date input: the
 * browser's date input follows the browser's locale (mm/dd/yyyy in a German window on an
 * English system). The value is yyyy-mm-dd, '' when empty; it is taken when the field is left
 * or Enter is pressed, and what is not a date is said in one line below it.
 */
export function DateField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (date: string) => void;
}) {
  const locale = formatLocale();
  const [text, setText] = useState(() => formatDateField(locale, value));
  const [bad, setBad] = useState(false);
  // A value set from outside (Clear filters) is shown as it is.
  useEffect(() => {
    setText(formatDateField(locale, value));
    setBad(false);
  }, [locale, value]);
  const pattern = dateFieldPattern(locale, strings.activity.dateLetters);
  const take = () => {
    if (!text.trim()) {
      setBad(false);
      if (value) onChange('');
      return;
    }
    const date = parseDateField(locale, text);
    setBad(date === null);
    if (date === null) return;
    setText(formatDateField(locale, date));
    if (date !== value) onChange(date);
  };
  const hintId = `${id}-hint`;
  return (
    <div className="field inline date-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        size={pattern.length + 1}
        placeholder={pattern}
        aria-describedby={hintId}
        aria-invalid={bad || undefined}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={take}
        onKeyDown={(e) => {
          if (e.key === 'Enter') take();
        }}
      />
      <span
        id={hintId}
        className={bad ? 'date-error' : 'visually-hidden'}
        role={bad ? 'alert' : undefined}
      >
        {bad ? strings.activity.dateBad(pattern) : strings.activity.dateHint(pattern)}
      </span>
    </div>
  );
}
