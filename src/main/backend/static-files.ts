import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

// The built window's files, for the two ways it is served: the `cli ui` bridge over HTTP and the
// desktop app's app:// protocol. Both answer with the same security headers and refuse every
// path that leads out of the renderer's folder.

/**
 * The window's Content-Security-Policy, sent as a response header (a meta tag cannot carry
 * frame-ancestors). `connectSrc` is what the page may reach: its own origin in a browser (the
 * bridge's WebSocket), nothing in the desktop app (it talks over IPC).
 */
export function rendererCsp(connectSrc: "'self'" | "'none'"): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${connectSrc}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers of every answer with a file of the window (and of a refusal). */
export function securityHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export const contentType = (file: string): string =>
  TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';

/** Raw dot segments or encoded slashes: never a name of one of the window's files. */
export function looksLikeTraversal(rawPath: string): boolean {
  const pathOnly = rawPath.split('?')[0]!;
  return /(^|\/|%2f|%5c)\.\.?(\/|%2f|%5c|$)/i.test(pathOnly) || /%2f|%5c/i.test(rawPath);
}

/** The file under `staticDir` a URL path names, or null (never a path outside it). */
export async function resolveStaticFile(
  staticDir: string,
  urlPath: string,
): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const root = await realpath(staticDir).catch(() => null);
  if (!root) return null;
  const wanted = path.resolve(root, '.' + path.posix.normalize('/' + decoded));
  if (wanted !== root && !wanted.startsWith(root + path.sep)) return null;
  // A symbolic link inside must not lead outside either.
  const real = await realpath(wanted).catch(() => null);
  if (!real || (real !== root && !real.startsWith(root + path.sep))) return null;
  const s = await stat(real).catch(() => null);
  if (!s) return null;
  if (s.isDirectory()) return resolveStaticFile(staticDir, path.posix.join(decoded, 'index.html'));
  return s.isFile() ? real : null;
}
