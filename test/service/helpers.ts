import { request, type Dispatcher } from 'undici';
import type { RunningSandbox } from '../../src/service/sandbox';
import type { SeededUser } from '../../src/service/seed';
import type { RoleName } from '../../src/service/roles';

export interface ApiAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface ApiOptions {
  token?: string | null;
  /** Sent as JSON (also on a GET: the activity filters travel that way). */
  json?: unknown;
  /** Sent form-encoded. */
  form?: Record<string, string> | URLSearchParams;
  /** Sent as is. */
  body?: string | Buffer;
  headers?: Record<string, string>;
  dispatcher?: Dispatcher;
}

/** One HTTP request with undici (global fetch cannot send a body on a GET). */
export async function api(
  baseUrl: string,
  method: Dispatcher.HttpMethod,
  path: string,
  opts: ApiOptions = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | Buffer | undefined = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] = 'application/json';
  } else if (opts.form !== undefined) {
    body = new URLSearchParams(opts.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const res = await request(baseUrl + path, {
    method,
    headers,
    body,
    dispatcher: opts.dispatcher,
  });
  const text = await res.body.text();
  let json: unknown;
  if (text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** A client bound to one sandbox and (by default) one user. */
export function client(sb: RunningSandbox, token?: string) {
  const call =
    (method: Dispatcher.HttpMethod) =>
    (path: string, opts: ApiOptions = {}): Promise<ApiAnswer> =>
      api(sb.baseUrl, method, path, { token, ...opts });
  return {
    get: call('GET'),
    post: call('POST'),
    put: call('PUT'),
    delete: call('DELETE'),
  };
}

export function userOf(sb: RunningSandbox, role: RoleName): SeededUser {
  const u = sb.users.find((x) => x.role === role);
  if (!u) throw new Error(`no seeded ${role}`);
  return u;
}

let counter = 0;

/** A fresh user through the test hook; returns its id and token. */
export async function newUser(
  sb: RunningSandbox,
  timeZone: string,
  name = 'Test User',
): Promise<{ id: number; token: string; email: string; password: string; time_zone: string }> {
  counter++;
  const email = `user${counter}-${Date.now()}@example.org`;
  const password = `pw-${counter}-secret`;
  const res = await api(sb.baseUrl, 'POST', '/_sandbox/users', {
    json: { name, email, password, time_zone: timeZone },
  });
  if (res.status !== 201) throw new Error(`creating a user: ${res.status} ${res.text}`);
  return {
    id: res.json.id as number,
    token: res.json.token as string,
    email,
    password,
    time_zone: timeZone,
  };
}

/** Makes a user a member of a workspace directly in the database. */
export function addMember(
  sb: RunningSandbox,
  workspaceId: number,
  user: { id: number; email: string },
  role: RoleName,
): void {
  sb.sandbox.db
    .prepare(
      `INSERT INTO rolemaps (workspace_id, user_id, email, role_name, state, updated_at)
       VALUES (?, ?, ?, ?, 'accepted', ?)`,
    )
    .run(workspaceId, user.id, user.email, role, sb.sandbox.clock.now());
}
