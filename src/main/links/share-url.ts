/** The absolute share URL: the server's base URL and the link's public path (conventions.md). */
export function shareUrl(server: string, link: string): string {
  if (/^https?:\/\//i.test(link)) return link;
  return server.replace(/\/+$/, '') + (link.startsWith('/') ? link : `/${link}`);
}
