import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import {
  contentType,
  looksLikeTraversal,
  rendererCsp,
  resolveStaticFile,
  securityHeaders,
} from './backend/static-files';

// The desktop window loads from app://workspace-sync/, not file://: a file: page's origin is
// opaque and shared with every local file, so 'self' in its CSP cannot pin it to the renderer,
// and a file: page may read other files. Our own secure, standard scheme gives the page a real
// origin, and the handler below serves only the renderer's folder, with the CSP as a header.

export const APP_SCHEME = 'app';
export const APP_HOST = 'workspace-sync';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The window's address: what `trusted` in app.ts compares a sender frame's URL with. */
export const RENDERER_URL = `${APP_ORIGIN}/index.html`;
/** The desktop window talks to the engine over IPC only: it may connect nowhere. */
export const DESKTOP_CSP = rendererCsp("'none'");

const HEADERS = securityHeaders(DESKTOP_CSP);

/**
 * Before the app is ready (Electron's rule): app: is a standard, secure scheme. corsEnabled
 * because Vite's bundle loads as `<script type="module" crossorigin>` (a CORS-mode request);
 * no other origin can read our files for it, since the handler sends no Access-Control header.
 * No fetch API: the window fetches nothing (connect-src 'none').
 */
export const APP_PRIVILEGES = { standard: true, secure: true, corsEnabled: true } as const;

export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_PRIVILEGES }]);
}

/** Once the app is ready: app:// serves the files of `rendererDir`. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, rendererHandler(rendererDir));
}

const refusal = (status: number, text: string): Response =>
  new Response(text, {
    status,
    headers: { ...HEADERS, 'content-type': 'text/plain; charset=utf-8' },
  });

/** The handler of app:// requests: a file of `rendererDir` with the CSP, or a refusal. */
export function rendererHandler(rendererDir: string): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return refusal(405, 'Method not allowed');
    // The path as sent, before any normalisation: a dot segment never names a file of ours.
    const raw = request.url.slice(request.url.indexOf('//') + 2);
    const rawPath = raw.includes('/') ? raw.slice(raw.indexOf('/')) : '/';
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return refusal(400, 'Bad address');
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST || looksLikeTraversal(rawPath))
      return refusal(404, 'Not found');
    const file = await resolveStaticFile(rendererDir, url.pathname);
    if (!file) return refusal(404, 'Not found');
    const body = request.method === 'HEAD' ? null : await readFile(file).catch(() => null);
    if (body === null && request.method !== 'HEAD') return refusal(404, 'Not found');
    return new Response(body, {
      status: 200,
      headers: { ...HEADERS, 'content-type': contentType(file), 'cache-control': 'no-cache' },
    });
  };
}
