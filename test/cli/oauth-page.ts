import { expect } from 'vitest';

/** What a browser does with the service's sign-in page: fills the form, follows the redirect. */
export async function signInOnPage(authorizeUrl: string, email: string, password: string) {
  const page = await fetch(authorizeUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.set(m[1]!, m[2]!.replace(/&amp;/g, '&'));
  expect(form.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  form.set('email', email);
  form.set('password', password);
  const action = /<form method="post" action="([^"]+)">/.exec(html)![1]!;
  const posted = await fetch(new URL(action, authorizeUrl), {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  expect(posted.status).toBe(302);
  // The loopback listener answers the browser with a page sending it back to the window.
  const back = await fetch(posted.headers.get('location')!);
  expect(back.status).toBe(200);
  expect(await back.text()).toContain('Return to Workspace Sync');
}
