import { describe, expect, it } from 'vitest';
import { dateFieldPattern, formatDateField, parseDateField } from '../../src/renderer/date-field';

// Activity's date filters are typed as the window's language writes a date (DateField.tsx), not
// as the browser's date input would ask (its own locale's mm/dd/yyyy in a German window).

describe('a date field in the window’s language', () => {
  it('asks German for TT.MM.JJJJ and reads a day so typed', () => {
    expect(dateFieldPattern('de-DE', 'TT MM JJJJ')).toBe('TT.MM.JJJJ');
    expect(parseDateField('de-DE', '1.3.2026')).toBe('2026-03-01');
    expect(parseDateField('de-DE', ' 15.03.2026 ')).toBe('2026-03-15');
    expect(formatDateField('de-DE', '2026-03-01')).toBe('01.03.2026');
  });

  it('refuses what is not a day of the calendar', () => {
    for (const text of ['31.02.2026', '13/31/2026', '1.3.26', '1.3', 'tomorrow', '0.1.2026'])
      expect(parseDateField('de-DE', text), text).toBeNull();
  });

  it('asks American English for mm/dd/yyyy and British English for dd/mm/yyyy', () => {
    expect(dateFieldPattern('en-US', 'dd mm yyyy')).toBe('mm/dd/yyyy');
    expect(parseDateField('en-US', '3/15/2026')).toBe('2026-03-15');
    expect(formatDateField('en-US', '2026-03-15')).toBe('03/15/2026');
    expect(dateFieldPattern('en-GB', 'dd mm yyyy')).toBe('dd/mm/yyyy');
    expect(parseDateField('en-GB', '15/3/2026')).toBe('2026-03-15');
  });
});
