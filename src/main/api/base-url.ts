// Where credentials may go: https, or plain http to this computer only.
import { InsecureConnectionError, ProtocolError } from './errors';

function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    hostname === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(hostname)
  );
}

/** Credentials go only over https, or plain http to this computer. */
export function assertSafeBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ProtocolError('base_url', '', `"${baseUrl}" is not a URL`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return url;
  throw new InsecureConnectionError('base_url');
}
