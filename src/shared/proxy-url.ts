/**
 * The proxy a person gives (the window's setting, `--proxy`, or HTTPS_PROXY and its kin): an
 * `http://host:port` URL, with `user:password@` before the host when the proxy wants a sign-in.
 * Shared by the window (its message under the field, in its own words: `strings.ts`) and the
 * main process (which refuses the same), so the two never disagree. No Node here: the window
 * runs it.
 */

/** What is wrong with a proxy URL. The text itself is never kept: it may hold a password. */
export type ProxyProblem =
  | { kind: 'no-scheme' }
  | { kind: 'scheme'; scheme: string }
  | { kind: 'not-url' }
  | { kind: 'no-host' }
  | { kind: 'path' }
  | { kind: 'no-user' };

/** What is wrong with `text` as a proxy, or null when it is usable ('' = the environment's). */
export function checkProxyUrl(text: string): ProxyProblem | null {
  const value = text.trim();
  if (value === '') return null;
  // `proxy:3128` parses as a URL of the scheme "proxy:": a missing scheme is said as such.
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: 'no-scheme' };
  if (scheme !== 'http' && scheme !== 'https') return { kind: 'scheme', scheme };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { kind: 'not-url' };
  }
  if (url.hostname === '') return { kind: 'no-host' };
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '')
    return { kind: 'path' };
  if (url.password !== '' && url.username === '') return { kind: 'no-user' };
  return null;
}

/** An example to copy, in every message. */
export const PROXY_EXAMPLE = 'http://proxy.example.com:3128';

/**
 * The main process's words for a problem (the CLI, the settings store): one line without a full
 * stop, starting in lowercase, for callers that put it after their own words.
 */
export function describeProxyProblem(problem: ProxyProblem): string {
  switch (problem.kind) {
    case 'no-scheme':
      return `write the proxy as a URL starting with http://, like ${PROXY_EXAMPLE}`;
    case 'scheme':
      return `only http:// (or https://) proxies can be used, not ${problem.scheme}://: write it like ${PROXY_EXAMPLE}`;
    case 'not-url':
      return `the proxy is not a valid URL (check its host and port): write it like ${PROXY_EXAMPLE}`;
    case 'no-host':
      return `the proxy URL names no host: write it like ${PROXY_EXAMPLE}`;
    case 'path':
      return `a proxy URL is only a host and a port, without a path: write it like ${PROXY_EXAMPLE}`;
    case 'no-user':
      return 'the proxy URL has a password but no user name: write user:password@ before the host';
  }
}

/** `checkProxyUrl` in the main process's words, or null. */
export function proxyUrlProblem(text: string): string | null {
  const problem = checkProxyUrl(text);
  return problem ? describeProxyProblem(problem) : null;
}

/** The proxy's URL as it may be shown or logged: its password replaced by `***`. */
export function shownProxyUrl(url: URL): string {
  const shown = new URL(url.href);
  if (shown.password !== '') shown.password = '***';
  // `new URL('http://h:3128').href` ends with '/': a proxy is shown as people write it.
  return shown.href.replace(/\/$/, '');
}
