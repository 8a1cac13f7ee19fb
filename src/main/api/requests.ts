// The request machinery under ServiceClient: one validated call, a list read page after page,
// and one page read where it is asked for. The per-area methods (client.ts) are built on these.
import type { z } from 'zod';
import { ProtocolError } from './errors';
import { ListWrapper } from './schemas';
import type { Method, QueryValue, Transport } from './transport';
import { identity, nextOffset } from './paging';
import { parseAnswer } from './validate';

export interface CallOptions {
  json?: unknown;
  query?: Record<string, QueryValue>;
  /** The key the answer's resource is wrapped in (`{workspace: {...}}`), when it is. */
  wrapper?: string;
}

/** One request, its answer validated against `schema` (null: any 2xx is success, no body read). */
export async function call<S extends z.ZodType>(
  transport: Transport,
  method: Method,
  path: string,
  endpoint: string,
  schema: S | null,
  opts: CallOptions = {},
): Promise<z.output<S>> {
  const { json } = await transport.requestJson({
    method,
    path,
    endpoint: `${method} ${endpoint}`,
    json: opts.json,
    query: opts.query,
  });
  if (schema === null) return undefined as z.output<S>;
  const value =
    opts.wrapper && json && typeof json === 'object' && opts.wrapper in json
      ? (json as Record<string, unknown>)[opts.wrapper]
      : json;
  return parseAnswer(schema, value, `${method} ${endpoint}`);
}

export interface PagesOptions {
  query?: Record<string, QueryValue>;
  json?: Record<string, unknown>;
  offset?: number;
}

/**
 * Every item of a list, page after page, driven by `offset` and the wrapper's figures. A
 * hostile or broken server cannot make it endless: it stops past `total_entries`, and a page
 * whose items were all listed already (an ignored `offset`) or a list past MAX_LIST_ITEMS is
 * a protocol error rather than a loop that fills the memory.
 */
export async function* pages(
  transport: Transport,
  path: string,
  endpoint: string,
  opts: PagesOptions = {},
): AsyncGenerator<Record<string, unknown>> {
  let offset = opts.offset ?? 0;
  const seen = new Set<string>();
  let listed = 0;
  for (;;) {
    const { json } = await transport.requestJson({
      method: 'GET',
      path,
      endpoint: `GET ${endpoint}`,
      query: { ...opts.query, offset: offset || undefined },
      json: opts.json,
    });
    const page = parseAnswer(ListWrapper, json, `GET ${endpoint}`);
    // An unpaged answer is the whole list, whatever offset was asked for.
    const items = Array.isArray(page) ? page.slice(offset) : page.items;
    let fresh = 0;
    for (const [i, item] of items.entries()) {
      if (!item || typeof item !== 'object') {
        throw new ProtocolError(`GET ${endpoint}`, `items[${i}]`, 'is not an object');
      }
      const key = identity(item as Record<string, unknown>);
      if (key !== null && seen.has(key)) continue;
      if (key !== null) seen.add(key);
      fresh++;
      listed++;
      yield item as Record<string, unknown>;
    }
    if (Array.isArray(page) || items.length === 0) return;
    const next = nextOffset(`GET ${endpoint}`, page, offset, items.length, fresh, listed);
    if (next === null) return;
    offset = next;
  }
}

/** A list's items as `schema`, each unwrapped from `key` where it is wrapped. */
export async function* typed<S extends z.ZodType>(
  items: AsyncIterable<Record<string, unknown>>,
  key: string,
  schema: S,
  endpoint: string,
): AsyncGenerator<z.output<S>> {
  for await (const item of items) yield parseAnswer(schema, item[key] ?? item, `GET ${endpoint}`);
}

/** One page as read: its items from `offset` on, and the wrapper (null for an unpaged answer). */
export interface OnePage {
  items: unknown[];
  wrapper: { total_entries?: number; next_offset?: number | null } | null;
  /** An unpaged answer's length (the whole list). */
  length: number;
}

/** Reads one page of a list at `offset` (GET, `endpoint` as `GET /path/:id`). */
export async function onePage(
  transport: Transport,
  path: string,
  endpoint: string,
  offset: number,
  opts: { query?: Record<string, QueryValue>; json?: unknown } = {},
): Promise<OnePage> {
  const { json } = await transport.requestJson({
    method: 'GET',
    path,
    endpoint,
    query: { ...opts.query, offset: offset || undefined },
    json: opts.json,
  });
  const page = parseAnswer(ListWrapper, json, endpoint);
  if (Array.isArray(page)) return { items: page.slice(offset), wrapper: null, length: page.length };
  return { items: page.items, wrapper: page, length: page.items.length };
}

/**
 * The offset of the page after one of `count` items at `offset`, or null at the end. A server
 * that does not move forward ends the listing rather than repeating it.
 */
export function pageNext(
  wrapper: { total_entries?: number; next_offset?: number | null },
  offset: number,
  count: number,
): number | null {
  const next =
    count === 0
      ? null
      : wrapper.next_offset !== undefined
        ? wrapper.next_offset
        : wrapper.total_entries !== undefined && offset + count >= wrapper.total_entries
          ? null
          : offset + count;
  return next !== null && next > offset ? next : null;
}

/** A page's item as an object, or a protocol error naming its place. */
export function itemAt(endpoint: string, item: unknown, i: number): Record<string, unknown> {
  if (!item || typeof item !== 'object') {
    throw new ProtocolError(endpoint, `items[${i}]`, 'is not an object');
  }
  return item as Record<string, unknown>;
}
