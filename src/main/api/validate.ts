import type { z } from 'zod';
import { ProtocolError } from './errors';

/**
 * Checks an answer against its schema. Extra fields pass (schemas are loose); a missing field
 * the client needs, or one of the wrong type, is a ProtocolError naming the endpoint and the
 * field, e.g. `items[3].folder.id`.
 */
export function parseAnswer<S extends z.ZodType>(
  schema: S,
  data: unknown,
  endpoint: string,
): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue ? formatPath(issue.path) : '';
  const problem =
    issue?.code === 'invalid_type' && /received undefined/.test(issue.message)
      ? 'is missing'
      : (issue?.message ?? 'does not match the contract')
          .replace(/^Invalid input: /, '')
          .toLowerCase();
  throw new ProtocolError(endpoint, field || 'the answer', problem);
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}
