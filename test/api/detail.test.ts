import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DETAIL_LENGTH, parseDetail, type ParsedDetail } from '../../src/shared/detail';
import type { User } from '../../src/service/context';
import { detailMarkup, type EventInput } from '../../src/service/events';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';

const EMPTY: ParsedDetail = { subject: '', predicate: '', objects: [], complement: '', text: '' };

interface EventJson {
  id: number;
  detail: string;
  workspace_id: number;
  user_id: number | null;
}

describe('parseDetail on the sandbox events', () => {
  let sb: RunningSandbox;
  const details: string[] = [];

  beforeAll(async () => {
    sb = await startSandbox({ seed: 'demo' });
    const token = sb.users[0]!.token;
    for (let offset = 0; ;) {
      const res = await fetch(`${sb.baseUrl}/activity?offset=${offset}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      const page = (await res.json()) as {
        total_entries: number;
        items: { event: EventJson }[];
      };
      if (page.items.length === 0) {
        expect(details.length).toBe(page.total_entries);
        break;
      }
      expect(page.items.length).toBeLessThanOrEqual(30);
      for (const item of page.items) details.push(item.event.detail);
      offset += page.items.length;
    }
  });

  afterAll(async () => {
    await sb?.close();
  });

  it('reads every seeded event', () => {
    // More than one page, so that paging was exercised.
    expect(details.length).toBeGreaterThan(30);
    const names = new Set([...sb.users.map((u) => u.name), 'Someone with the link']);
    for (const detail of details) {
      const d = parseDetail(detail);
      expect(names.has(d.subject), `${d.subject} in ${detail}`).toBe(true);
      expect(d.predicate).not.toBe('');
      expect(d.objects.length).toBeGreaterThan(0);
      const first = d.objects[0]!;
      expect(['workspace', 'folder', 'file']).toContain(first.kind);
      expect(first.id).toEqual(expect.any(Number));
      expect(first.workspaceId).toBe(sb.workspaceId);
      expect(first.href).toMatch(/^\/workspaces\/\d+/);
      expect(first.text).not.toBe('');
      const last = d.objects[d.objects.length - 1]!;
      if (first.kind !== 'workspace') {
        // An item event: the item, then the workspace it is in.
        expect(d.objects.length).toBe(2);
        expect(first.label).toBe(first.kind === 'folder' ? 'Folder' : 'File');
        expect(last).toEqual({
          text: 'Q3 Planning',
          label: 'Workspace',
          href: `/workspaces/${sb.workspaceId}`,
          kind: 'workspace',
          id: sb.workspaceId,
          workspaceId: sb.workspaceId,
        });
      } else {
        expect(first.text).toBe('Q3 Planning');
        expect(first.id).toBe(sb.workspaceId);
      }
      expect(d.text).not.toContain('<');
      expect(d.text).not.toContain('>');
      expect(d.text.startsWith(`${d.subject} ${d.predicate} `)).toBe(true);
      expect(d.text).toContain(first.text.trim());
      if (d.complement) expect(d.text).toContain(d.complement);
    }
  });

  it('decodes the names the seed escapes', () => {
    const parsed = details.map(parseDetail);
    const texts = parsed.flatMap((d) => d.objects.map((o) => o.text));
    expect(texts).toContain('Budgets & Forecasts');
    expect(texts).toContain('Team Photos 📷');
    expect(texts).toContain('offsite ☀️.png');
    const complements = parsed.map((d) => d.complement);
    expect(complements).toContain('"Ça me semble très bien."');
    expect(parsed.map((d) => d.text)).toContain(
      'Moritz Schäfer created the Budgets & Forecasts Folder in the Q3 Planning Workspace',
    );
  });

  it("gives back the exact names from the sandbox's own detailMarkup", () => {
    const user: User = {
      id: 7,
      name: 'Zoë <b>O\'Neil</b> & "Co"',
      email: 'zoe@example.com',
      password_hash: '',
      time_zone: 'UTC',
      link_base_url: null,
      created_at: 0,
    };
    const names = [
      '<img src=x onerror=alert(1)>',
      `R&D "quotes" 'apos'`,
      '&amp;lt;',
      '&#60;script&#62;',
      '🎉 party 👩‍👩‍👧 time',
      '</object></a><script>alert(1)</script>',
      '>> a < b <<',
    ];
    for (const name of names) {
      const wsName = `WS ${name}`;
      const input: EventInput = {
        workspace: { id: 12, name: wsName },
        actor: user,
        verb: 'update',
        predicate: 'renamed',
        item: { kind: 'file', id: 345, name },
        complement: `from ${name}`,
      };
      const d = parseDetail(detailMarkup(input));
      expect(d.subject).toBe(user.name);
      expect(d.predicate).toBe('renamed');
      expect(d.complement).toBe(`from ${name}`);
      expect(d.objects).toEqual([
        {
          text: name,
          label: 'File',
          href: '/workspaces/12/files/345',
          kind: 'file',
          id: 345,
          workspaceId: 12,
        },
        {
          text: wsName,
          label: 'Workspace',
          href: '/workspaces/12',
          kind: 'workspace',
          id: 12,
          workspaceId: 12,
        },
      ]);
      expect(d.text).toBe(
        `${user.name} renamed the ${name} File from ${name} in the ${wsName} Workspace`,
      );

      const folder = parseDetail(
        detailMarkup({
          workspace: { id: 3, name: wsName },
          actor: null,
          verb: 'create',
          predicate: 'created',
          item: { kind: 'folder', id: 9, name },
        }),
      );
      expect(folder.subject).toBe('Someone with the link');
      expect(folder.complement).toBe('');
      expect(folder.objects.map((o) => [o.text, o.label, o.kind, o.id, o.workspaceId])).toEqual([
        [name, 'Folder', 'folder', 9, 3],
        [wsName, 'Workspace', 'workspace', 3, 3],
      ]);

      const workspace = parseDetail(
        detailMarkup({
          workspace: { id: 3, name },
          actor: user,
          verb: 'create',
          predicate: 'created',
        }),
      );
      expect(workspace.objects).toEqual([
        {
          text: name,
          label: 'Workspace',
          href: '/workspaces/3',
          kind: 'workspace',
          id: 3,
          workspaceId: 3,
        },
      ]);
    }
  });
});

describe('parseDetail on well-formed markup', () => {
  it('reads the example of the conventions', () => {
    const d = parseDetail(
      '<subject>Ann Lee</subject> <predicate>renamed</predicate> the <object><a href="/workspaces/4/folders/42">Reports</a> Folder</object> <complement>from Drafts</complement> in the <object><a href="/workspaces/4">Q3</a> Workspace</object>',
    );
    expect(d).toEqual({
      subject: 'Ann Lee',
      predicate: 'renamed',
      objects: [
        {
          text: 'Reports',
          label: 'Folder',
          href: '/workspaces/4/folders/42',
          kind: 'folder',
          id: 42,
          workspaceId: 4,
        },
        {
          text: 'Q3',
          label: 'Workspace',
          href: '/workspaces/4',
          kind: 'workspace',
          id: 4,
          workspaceId: 4,
        },
      ],
      complement: 'from Drafts',
      text: 'Ann Lee renamed the Reports Folder from Drafts in the Q3 Workspace',
    });
  });

  it('recognises hrefs under a base path or as absolute URLs by their tail', () => {
    const obj = (href: string) =>
      parseDetail(`<object><a href="${href}">x</a> File</object>`).objects[0]!;
    expect(obj('https://host/api/v1/workspaces/4/files/9')).toEqual({
      text: 'x',
      label: 'File',
      href: 'https://host/api/v1/workspaces/4/files/9',
      kind: 'file',
      id: 9,
      workspaceId: 4,
    });
    expect(obj('/api/v1/workspaces/4/folders/9')).toMatchObject({
      kind: 'folder',
      id: 9,
      workspaceId: 4,
    });
    expect(obj('HTTP://host:8080/base/workspaces/5?x=1#y')).toMatchObject({
      href: 'HTTP://host:8080/base/workspaces/5?x=1#y',
      kind: 'workspace',
      id: 5,
      workspaceId: 5,
    });
    expect(obj('/workspaces/5/files/6/')).toMatchObject({ kind: 'file', id: 6, workspaceId: 5 });
    for (const href of [
      '/workspaces/4/comments/9',
      '/workspaces/x/files/9',
      '/workspaces/4/files/',
      '/myworkspaces/4',
      '/workspaces/4/files/9/versions',
      '/files/9',
      'https://host',
      'https://host?/workspaces/4',
      '/workspaces/-1',
      '/workspaces/1e3',
    ]) {
      const o = obj(href);
      expect(o.href, href).toBe(href);
      expect(o.kind, href).toBe('unknown');
      expect(o.id, href).toBeNull();
      expect(o.workspaceId, href).toBeNull();
    }
  });

  it('takes an object without a link as plain text', () => {
    const d = parseDetail(
      '<subject>Ann</subject> <predicate>did</predicate> <object> a  thing </object>',
    );
    expect(d.objects).toEqual([
      { text: 'a thing', label: '', href: null, kind: 'unknown', id: null, workspaceId: null },
    ]);
    const noHref = parseDetail('<object><a name="x">Named</a> File</object>').objects[0];
    expect(noHref).toEqual({
      text: 'Named',
      label: 'File',
      href: null,
      kind: 'unknown',
      id: null,
      workspaceId: null,
    });
  });

  it('reads upper-case tags, attributes in any quotes and other attributes', () => {
    const d = parseDetail(
      "<SUBJECT class=x>Ann</SUBJECT> <Predicate>saw</Predicate> <OBJECT><A title='a > b' HREF='/workspaces/2/files/3' data-x=1>one</A> File</OBJECT> <object><a id=z href=/workspaces/2 >two</a> Workspace</object>",
    );
    expect(d.subject).toBe('Ann');
    expect(d.predicate).toBe('saw');
    expect(d.objects.map((o) => [o.text, o.label, o.href, o.kind, o.id])).toEqual([
      ['one', 'File', '/workspaces/2/files/3', 'file', 3],
      ['two', 'Workspace', '/workspaces/2', 'workspace', 2],
    ]);
    expect(d.text).toBe('Ann saw one File two Workspace');
  });

  it('keeps a `>` inside a quoted attribute value in the value', () => {
    const d = parseDetail(
      '<object><a href="/workspaces/1/files/2?q=>x" title=">">n</a> File</object>',
    );
    expect(d.objects[0]).toMatchObject({
      text: 'n',
      label: 'File',
      href: '/workspaces/1/files/2?q=>x',
      kind: 'file',
    });
    expect(d.text).toBe('n File');
  });

  it('uses the first of two href attributes, as HTML does', () => {
    const d = parseDetail('<object><a href="/workspaces/1" href="javascript:x">n</a></object>');
    expect(d.objects[0]!.href).toBe('/workspaces/1');
    const e = parseDetail('<object><a href="javascript:x" href="/workspaces/1">n</a></object>');
    expect(e.objects[0]!.href).toBeNull();
  });
});

describe('parseDetail on hostile markup', () => {
  it('returns the empty result for non-strings and the empty string', () => {
    for (const input of [
      undefined,
      null,
      42,
      {},
      [],
      true,
      Symbol('x'),
      () => '<subject>x</subject>',
      '',
    ]) {
      expect(parseDetail(input)).toEqual(EMPTY);
    }
    // An object with a toString is not called.
    let called = false;
    const sneaky = {
      toString() {
        called = true;
        return '<subject>x</subject>';
      },
    };
    expect(parseDetail(sneaky)).toEqual(EMPTY);
    expect(called).toBe(false);
  });

  it('reads text without tags as text', () => {
    expect(parseDetail('  just   words\n here ')).toEqual({ ...EMPTY, text: 'just words here' });
  });

  it('survives unclosed tags', () => {
    expect(parseDetail('<subject>Ann Lee')).toEqual({
      ...EMPTY,
      subject: 'Ann Lee',
      text: 'Ann Lee',
    });
    const d = parseDetail(
      '<subject>Ann</subject> <predicate>made <object><a href="/workspaces/1/files/2">F',
    );
    expect(d.subject).toBe('Ann');
    // The object tag inside the predicate is only content of the predicate.
    expect(d.predicate).toBe('made F');
    expect(d.objects).toEqual([]);
    expect(d.text).toBe('Ann made F');
    const e = parseDetail('<object><a href="/workspaces/1/files/2">Fi');
    expect(e.objects).toEqual([
      { text: 'Fi', label: '', href: '/workspaces/1/files/2', kind: 'file', id: 2, workspaceId: 1 },
    ]);
    // A tag left open at the end of the input is dropped, as a browser drops it.
    expect(parseDetail('<subject>Ann</subject> <predicate')).toEqual({
      ...EMPTY,
      subject: 'Ann',
      text: 'Ann',
    });
    expect(parseDetail('<object><a href="/workspaces/1>never closed')).toEqual({
      ...EMPTY,
      objects: [{ text: '', label: '', href: null, kind: 'unknown', id: null, workspaceId: null }],
    });
    expect(parseDetail('a <!-- comment never closed <subject>x</subject>')).toEqual({
      ...EMPTY,
      text: 'a',
    });
  });

  it('survives nested and mismatched tags', () => {
    const nested = parseDetail('<object><object>x</object>');
    expect(nested.objects).toEqual([
      { text: 'x', label: '', href: null, kind: 'unknown', id: null, workspaceId: null },
    ]);
    expect(nested.text).toBe('x');
    const twice = parseDetail('<object><object>x</object>y</object> z');
    expect(twice.objects.map((o) => o.text)).toEqual(['xy']);
    expect(twice.text).toBe('xy z');
    const mixed = parseDetail(
      '<subject>A<subject>B</subject>C</subject><predicate>p</subject>q</predicate></complement>',
    );
    expect(mixed.subject).toBe('ABC');
    expect(mixed.predicate).toBe('pq');
    expect(mixed.complement).toBe('');
    expect(mixed.text).toBe('ABCpq');
    const links = parseDetail(
      '<object><a href="/workspaces/1/files/2">a<a href="javascript:x">b</a>c</a> File</object>',
    );
    expect(links.objects[0]).toMatchObject({
      text: 'ab',
      label: 'c File',
      href: '/workspaces/1/files/2',
    });
    const selfClosing = parseDetail('<subject/>Ann <object/><predicate>x</predicate>');
    expect(selfClosing.subject).toBe('');
    expect(selfClosing.predicate).toBe('x');
    expect(selfClosing.objects).toHaveLength(1);
    expect(selfClosing.text).toBe('Ann x');
  });

  it('drops script and style content and removes every other tag', () => {
    const d = parseDetail(
      '<subject>Ann<script>alert(1)</script></subject> <predicate><b>bold</b><img src=x onerror=alert(1)>ly <style>p{}</style>went</predicate> <complement><SCRIPT type="x">alert(2)</SCRIPT >ok<script/>alert(3)</script></complement>',
    );
    expect(d.subject).toBe('Ann');
    expect(d.predicate).toBe('boldly went');
    expect(d.complement).toBe('ok');
    expect(d.text).toBe('Ann boldly went ok');
    expect(parseDetail('<script>alert(1)</script>')).toEqual(EMPTY);
    expect(parseDetail('a<script>alert(1)</scripty></script>b').text).toBe('ab');
    expect(parseDetail('a<script>never closed <subject>x</subject>').text).toBe('a');
    expect(parseDetail('a<script>x</script').text).toBe('a');
    expect(parseDetail('a<!-- <script> -->b<!DOCTYPE html><?xml x?>c</>d</ bogus>e').text).toBe(
      'abcde',
    );
  });

  it('keeps stray < and > as text', () => {
    const d = parseDetail('<subject>a < b > c <3 <</subject> 1<2 </ x> <');
    expect(d.subject).toBe('a < b > c <3 <');
    expect(d.text).toBe('a < b > c <3 < 1<2 <');
  });

  it('decodes entities exactly once', () => {
    const text = (s: string) => parseDetail(s).text;
    expect(text('&amp;lt;script&amp;gt;')).toBe('&lt;script&gt;');
    expect(text('&#60;b&#62;')).toBe('<b>');
    expect(text('&#x3C;&#X3c;')).toBe('<<');
    expect(text('&lt;&gt;&quot;&#39;&apos;&amp;')).toBe(`<>"''&`);
    expect(text('&#128512; &#x1F600;')).toBe('😀 😀');
    expect(text('&#0065;')).toBe('A');
    // Invalid or out-of-range references stay as written.
    expect(text('&#99999999;')).toBe('&#99999999;');
    expect(text('&#0;')).toBe('&#0;');
    expect(text('&#xD800;')).toBe('&#xD800;');
    expect(text('&#x110000;')).toBe('&#x110000;');
    expect(text(`&#${'9'.repeat(400)};`)).toBe(`&#${'9'.repeat(400)};`);
    expect(text('&#;&#x;&#xG;&#12')).toBe('&#;&#x;&#xG;&#12');
    // Without the semicolon, or unknown names, nothing is decoded.
    expect(text('&amp &lt &nbsp; &AMP; &ampx; &&amp;')).toBe('&amp &lt &nbsp; &AMP; &ampx; &&');
    // Decoded `<` does not start a tag.
    const d = parseDetail('<subject>&lt;script&gt;alert(1)&lt;/script&gt;</subject>');
    expect(d.subject).toBe('<script>alert(1)</script>');
  });

  it('refuses unsafe hrefs', () => {
    const href = (h: string, quote = '"') =>
      parseDetail(`<object><a href=${quote}${h}${quote}>n</a> File</object>`).objects[0]!;
    const unsafe = [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'JavaScript:alert(1)',
      '&#106;avascript:alert(1)',
      '&#x6A;avascript:alert(1)',
      'java\tscript:alert(1)',
      'java&#9;script:alert(1)',
      'java\nscript:alert(1)',
      'java&#x0A;script:alert(1)',
      ' javascript:alert(1)',
      '\u0001javascript:alert(1)',
      'javascript&#58;alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'ftp://host/workspaces/1',
      'mailto:a@b.c',
      'workspaces/1/files/2',
      './workspaces/1',
      '//evil.example/workspaces/1/files/2',
      '/\\evil.example/workspaces/1',
      '\\\\evil.example/workspaces/1',
      ' /workspaces/1/files/2',
      '/workspaces/1/files/2\n',
      '/workspaces/1/files/2&#10;',
      '/work\u200bspaces/1',
      '/workspaces/1\u202e',
      'https:/host/workspaces/1',
      'https://',
      'http:///workspaces/1',
      'https\t://host/workspaces/1',
      '',
      '&amp;#106;avascript:x',
    ];
    for (const h of unsafe) {
      for (const quote of ['"', "'"]) {
        const o = href(h, quote);
        expect(o.href, JSON.stringify(h)).toBeNull();
        expect(o.kind, JSON.stringify(h)).toBe('unknown');
        expect(o.id).toBeNull();
        expect(o.workspaceId).toBeNull();
        expect(o.text).toBe('n');
        expect(o.label).toBe('File');
      }
    }
    // Unquoted: the value ends at whitespace, so `java script:` is the value `java`.
    expect(href('javascript:alert(1)', '').href).toBeNull();
    expect(href('/workspaces/1/files/2', '')).toMatchObject({
      href: '/workspaces/1/files/2',
      kind: 'file',
    });
    // Entities in a safe href are decoded once.
    expect(href('/workspaces/1/files/2?a=1&amp;b=2').href).toBe('/workspaces/1/files/2?a=1&b=2');
    expect(href('&#x2F;workspaces/1').href).toBe('/workspaces/1');
    expect(href('https://host/x?q=&amp;lt;').href).toBe('https://host/x?q=&lt;');
  });

  it('caps a huge input at 64 KiB and still returns', () => {
    const mb = 1024 * 1024;
    const huge = parseDetail(`<subject>${'a'.repeat(mb)}</subject>`);
    expect(huge.subject).toBe('a'.repeat(MAX_DETAIL_LENGTH - '<subject>'.length));
    expect(huge.text).toBe(huge.subject);
    expect(MAX_DETAIL_LENGTH).toBe(64 * 1024);

    // Pathological shapes: many `<`, many `&`, open tags, attributes, nesting, quotes.
    const shapes = [
      '<'.repeat(mb),
      '&'.repeat(mb),
      '&#'.repeat(mb / 2),
      '<a'.repeat(mb / 2),
      '</'.repeat(mb / 2),
      '<a x=" '.repeat(mb / 8),
      '<object>'.repeat(mb / 8),
      '<script>'.repeat(mb / 8),
      '<a href=/workspaces/1 '.repeat(mb / 16),
      '<!--'.repeat(mb / 4),
      `<object><a href="${'/'.repeat(mb)}">x</a></object>`,
    ];
    for (const input of shapes) {
      const d = parseDetail(input);
      expect(typeof d.text).toBe('string');
      expect(d.text.length).toBeLessThanOrEqual(MAX_DETAIL_LENGTH);
      expect(d.objects.length).toBeLessThanOrEqual(MAX_DETAIL_LENGTH);
    }
    expect(parseDetail('<'.repeat(mb)).text).toBe('<'.repeat(MAX_DETAIL_LENGTH));
    expect(parseDetail('<object>'.repeat(mb / 8)).objects).toHaveLength(1);

    // A surrogate pair at the cut is not split.
    const emoji = parseDetail('x'.repeat(MAX_DETAIL_LENGTH - 1) + '😀');
    expect(emoji.text).toBe('x'.repeat(MAX_DETAIL_LENGTH - 1));
  });

  it('returns only plain data', () => {
    const d = parseDetail('<object><a href="/workspaces/1/files/2">n</a> File</object>');
    expect(JSON.parse(JSON.stringify(d))).toEqual(d);
    expect(Object.keys(d).sort()).toEqual([
      'complement',
      'objects',
      'predicate',
      'subject',
      'text',
    ]);
    expect(Object.keys(d.objects[0]!).sort()).toEqual([
      'href',
      'id',
      'kind',
      'label',
      'text',
      'workspaceId',
    ]);
  });
});
