import { fail } from '../errors';

/** An instant from the window, as epoch ms; 'invalid' naming the field otherwise. */
export function epochOf(
  value: string | undefined,
  field: 'expiry' | 'from' | 'to',
): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : fail('invalid', { key: 'backend.badDate', params: { field } });
}
