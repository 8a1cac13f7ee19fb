import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { verifyPassword } from '../auth';
import type { Sandbox, User } from '../context';
import type { ItemRow, LinkRow } from '../db';
import { recordEvent } from '../events';
import { escapeHtml, type Reply, type RouteContext, type Router } from '../http';
import { checkPasswordProof, linkByToken, linkIsOpen, passwordProof } from '../links-model';
import { ancestorChain } from '../model';

// Shared content: what someone with a link sees, without an account. A folder link shows a small
// HTML page listing the folder (and lets the visitor walk down into its subfolders and download
// its files); a file link downloads the file. Anything not reachable through an open link is 404.

const COOKIE = 'share_access';
const COOKIE_MAX_AGE_SECONDS = 12 * 60 * 60;
/** Wrong passwords allowed per link within the window before attempts get a 429. */
const MAX_FAILURES = 10;
const FAILURE_WINDOW_MS = 10 * 60 * 1000;

/** Recent wrong-password times per link token (in memory: a sandbox is one process). */
type Failures = Map<string, number[]>;

const PAGE_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

type Kind = 'folder' | 'file';
type Ctx = RouteContext<User>;

interface Opened {
  link: LinkRow;
  item: ItemRow;
  /** The canonical path of the link's page, with the base path: `/base/folders/<token>`. */
  linkPath: string;
}

function sendPage(res: ServerResponse, status: number, title: string, body: string): 'handled' {
  const html =
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="referrer" content="no-referrer">` +
    `<title>${escapeHtml(title)}</title></head>\n<body>\n${body}\n</body></html>\n`;
  res.writeHead(status, {
    ...PAGE_HEADERS,
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
  });
  res.end(html);
  return 'handled';
}

function notFound(res: ServerResponse): 'handled' {
  return sendPage(
    res,
    404,
    'Not found',
    '<h1>Not found</h1>\n<p>This link does not exist, has been turned off or has expired.</p>',
  );
}

function cookieValues(header: string | undefined, name: string): string[] {
  if (!header) return [];
  const out: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) out.push(part.slice(eq + 1).trim());
  }
  return out;
}

function open(sb: Sandbox, kind: Kind, token: string): Opened | null {
  const found = linkByToken(sb, kind, token);
  if (!found || !linkIsOpen(sb, found.link)) return null;
  const plural = kind === 'file' ? 'files' : 'folders';
  return {
    ...found,
    linkPath: `${sb.config.basePath}/${plural}/${encodeURIComponent(found.link.token)}`,
  };
}

function unlocked(sb: Sandbox, ctx: Ctx, opened: Opened): boolean {
  if (opened.link.require_password !== 1) return true;
  return cookieValues(ctx.req.headers.cookie, COOKIE).some((v) =>
    checkPasswordProof(sb, opened.link, v),
  );
}

function passwordPage(
  res: ServerResponse,
  status: number,
  action: string,
  message: string | null,
): 'handled' {
  const note = message ? `<p role="alert"><strong>${escapeHtml(message)}</strong></p>\n` : '';
  return sendPage(
    res,
    status,
    'Password required',
    `<h1>Password required</h1>\n<p>This shared content is protected by a password.</p>\n${note}` +
      `<form method="post" action="${escapeHtml(action)}">\n` +
      `<label>Password <input type="password" name="password" autocomplete="current-password" required autofocus></label>\n` +
      `<button type="submit">Open</button>\n</form>`,
  );
}

/** Whether `target` is `root` or lies below it. */
function isWithin(sb: Sandbox, root: ItemRow, target: ItemRow): boolean {
  if (target.workspace_id !== root.workspace_id || target.hidden === 1) return false;
  return target.id === root.id || ancestorChain(sb, target.parent_id).includes(root.id);
}

function itemById(sb: Sandbox, id: number, kind: Kind): ItemRow | undefined {
  return sb.db.prepare(`SELECT * FROM items WHERE id = ? AND kind = ?`).get(id, kind) as
    ItemRow | undefined;
}

function recordView(sb: Sandbox, ctx: Ctx, item: ItemRow): void {
  if (ctx.req.method === 'HEAD') return;
  const workspace = sb.db
    .prepare(`SELECT id, name FROM workspaces WHERE id = ?`)
    .get(item.workspace_id) as { id: number; name: string } | undefined;
  if (!workspace) return;
  recordEvent(sb, {
    workspace,
    actor: null,
    verb: 'read',
    predicate: 'viewed',
    item: { kind: item.kind, id: item.id, name: item.filename },
  });
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let n = bytes / 1024;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n.toFixed(1)} ${units[i]}`;
}

function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

async function sendFile(sb: Sandbox, ctx: Ctx, file: ItemRow): Promise<Reply> {
  const { res } = ctx;
  const size = file.blob ? await sb.blobs.size(file.blob) : 0;
  recordView(sb, ctx, file);
  res.writeHead(200, {
    'content-type': 'application/octet-stream',
    'content-length': size,
    'content-disposition': contentDisposition(file.filename),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
  if (!file.blob || ctx.req.method === 'HEAD') {
    res.end();
    return 'handled';
  }
  try {
    await pipeline(sb.blobs.read(file.blob), res);
  } catch {
    res.destroy();
  }
  return 'handled';
}

function folderPage(sb: Sandbox, ctx: Ctx, opened: Opened, folder: ItemRow): 'handled' {
  const children = sb.db
    .prepare(
      `SELECT * FROM items WHERE parent_id = ? AND hidden = 0
       ORDER BY CASE kind WHEN 'folder' THEN 0 ELSE 1 END, name_key, id`,
    )
    .all(folder.id) as ItemRow[];
  const rows = children.map((c) => {
    const href =
      c.kind === 'folder'
        ? `${opened.linkPath}?folder=${c.id}`
        : `${opened.linkPath}/files/${c.id}`;
    const label = c.kind === 'folder' ? 'Folder' : formatSize(c.size);
    return `<li><a href="${escapeHtml(href)}">${escapeHtml(c.filename)}</a> <small>${label}</small></li>`;
  });
  const up =
    folder.id !== opened.item.id && folder.parent_id !== null
      ? `<p><a href="${escapeHtml(
          folder.parent_id === opened.item.id
            ? opened.linkPath
            : `${opened.linkPath}?folder=${folder.parent_id}`,
        )}">Up one level</a></p>\n`
      : '';
  const list = rows.length > 0 ? `<ul>\n${rows.join('\n')}\n</ul>` : '<p>This folder is empty.</p>';
  recordView(sb, ctx, folder);
  return sendPage(
    ctx.res,
    200,
    folder.filename,
    `<h1>${escapeHtml(folder.filename)}</h1>\n${up}${list}`,
  );
}

/** `?folder=<id>`: a folder below the linked one, the linked folder itself, or null (404). */
function folderToShow(sb: Sandbox, ctx: Ctx, opened: Opened): ItemRow | null {
  const raw = ctx.query.get('folder');
  if (raw === null || raw === '') return opened.item;
  if (!/^\d{1,15}$/.test(raw)) return null;
  const folder = itemById(sb, Number(raw), 'folder');
  return folder && isWithin(sb, opened.item, folder) ? folder : null;
}

/** The canonical path (and query) of the page a request asked for, to post and return to. */
function selfPath(ctx: Ctx, opened: Opened, fileId?: number): string {
  if (fileId !== undefined) return `${opened.linkPath}/files/${fileId}`;
  const folder = ctx.query.get('folder');
  return folder && /^\d{1,15}$/.test(folder)
    ? `${opened.linkPath}?folder=${folder}`
    : opened.linkPath;
}

async function show(sb: Sandbox, ctx: Ctx, kind: Kind, fileId?: number): Promise<Reply> {
  const opened = open(sb, kind, ctx.params.token!);
  if (!opened) return notFound(ctx.res);
  if (!unlocked(sb, ctx, opened))
    return passwordPage(ctx.res, 200, selfPath(ctx, opened, fileId), null);
  if (kind === 'file') {
    return opened.item.hidden === 1 ? notFound(ctx.res) : sendFile(sb, ctx, opened.item);
  }
  if (fileId !== undefined) {
    const file = itemById(sb, fileId, 'file');
    if (!file || !isWithin(sb, opened.item, file)) return notFound(ctx.res);
    return sendFile(sb, ctx, file);
  }
  const folder = folderToShow(sb, ctx, opened);
  return folder ? folderPage(sb, ctx, opened, folder) : notFound(ctx.res);
}

function recentFailures(sb: Sandbox, failures: Failures, token: string): number[] {
  const since = sb.clock.now() - FAILURE_WINDOW_MS;
  const recent = (failures.get(token) ?? []).filter((t) => t > since);
  if (recent.length > 0) failures.set(token, recent);
  else failures.delete(token);
  return recent;
}

async function unlock(
  sb: Sandbox,
  failures: Failures,
  ctx: Ctx,
  kind: Kind,
  fileId?: number,
): Promise<Reply> {
  const opened = open(sb, kind, ctx.params.token!);
  if (!opened) {
    ctx.req.resume();
    return notFound(ctx.res);
  }
  const back = selfPath(ctx, opened, fileId);
  const redirect = (headers: Record<string, string> = {}): 'handled' => {
    ctx.res.writeHead(303, { ...PAGE_HEADERS, location: back, 'content-length': 0, ...headers });
    ctx.res.end();
    return 'handled';
  };
  if (opened.link.require_password !== 1) {
    ctx.req.resume();
    return redirect();
  }
  const token = opened.link.token;
  if (recentFailures(sb, failures, token).length >= MAX_FAILURES) {
    ctx.req.resume();
    ctx.res.setHeader('retry-after', String(FAILURE_WINDOW_MS / 1000));
    return passwordPage(ctx.res, 429, back, 'Too many wrong passwords. Try again later.');
  }
  const body = await ctx.body();
  const password = typeof body.password === 'string' ? body.password : '';
  const ok =
    password !== '' &&
    opened.link.password_hash !== null &&
    (await verifyPassword(password, opened.link.password_hash));
  if (!ok) {
    failures.set(token, [...recentFailures(sb, failures, token), sb.clock.now()]);
    return passwordPage(ctx.res, 401, back, 'The password is not correct.');
  }
  failures.delete(token);
  const cookie =
    `${COOKIE}=${passwordProof(sb, opened.link)}; Path=${opened.linkPath}; ` +
    `Max-Age=${COOKIE_MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict`;
  return redirect({ 'set-cookie': cookie });
}

export function registerSharedPages(router: Router<User>, sb: Sandbox): void {
  const none = { auth: 'none' as const };
  const failures: Failures = new Map();
  router.add('GET', '/folders/:token', (ctx) => show(sb, ctx, 'folder'), none);
  router.add('POST', '/folders/:token', (ctx) => unlock(sb, failures, ctx, 'folder'), none);
  router.add(
    'GET',
    '/folders/:token/files/:id',
    (ctx) => show(sb, ctx, 'folder', Number(ctx.params.id)),
    none,
  );
  router.add(
    'POST',
    '/folders/:token/files/:id',
    (ctx) => unlock(sb, failures, ctx, 'folder', Number(ctx.params.id)),
    none,
  );
  router.add('GET', '/files/:token', (ctx) => show(sb, ctx, 'file'), none);
  router.add('POST', '/files/:token', (ctx) => unlock(sb, failures, ctx, 'file'), none);
}
