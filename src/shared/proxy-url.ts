/**
 * The proxy a person gives (the window's setting, `--proxy`, or HTTPS_PROXY and its kin): an
 * `http://host:port` URL, with `user:password@` before the host when the proxy wants a sign-in.
 * Shared by the window (its message under the field) and the main process (which refuses the
 * same), so the two never disagree. No Node here: the window runs it.
 */

/** An example to copy, in every message. */
const EXAMPLE = 'http://proxy.example.com:3128';

/**
 * What is wrong with `text` as a proxy, in one line without a full stop (callers add their own
 * punctuation), or null when it is usable. '' (use the environment) is usable. The text itself is
 * never repeated: it may hold a password.
 */
export function proxyUrlProblem(text: string): string | null {
  const value = text.trim();
  if (value === '') return null;
  // `proxy:3128` parses as a URL of the scheme "proxy:": a missing scheme is said as such.
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined)
    return `write the proxy as a URL starting with http://, like ${EXAMPLE}`;
  if (scheme !== 'http' && scheme !== 'https') {
    return `only http:// (or https://) proxies can be used, not ${scheme}://: write it like ${EXAMPLE}`;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `the proxy is not a valid URL (check its host and port): write it like ${EXAMPLE}`;
  }
  if (url.hostname === '') return `the proxy URL names no host: write it like ${EXAMPLE}`;
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    return `a proxy URL is only a host and a port, without a path: write it like ${EXAMPLE}`;
  }
  if (url.password !== '' && url.username === '') {
    return 'the proxy URL has a password but no user name: write user:password@ before the host';
  }
  return null;
}

/** The proxy's URL as it may be shown or logged: its password replaced by `***`. */
export function shownProxyUrl(url: URL): string {
  const shown = new URL(url.href);
  if (shown.password !== '') shown.password = '***';
  // `new URL('http://h:3128').href` ends with '/': a proxy is shown as people write it.
  return shown.href.replace(/\/$/, '');
}
