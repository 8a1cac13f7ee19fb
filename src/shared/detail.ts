/**
 * A total, linear-time parser for the `detail` markup of an Event (see the spec's "Event" and the
 * conventions' "Event (real shape)"):
 *
 *   <subject>Ann Lee</subject> <predicate>renamed</predicate> the
 *   <object><a href="/workspaces/4/folders/42">Reports</a> Folder</object>
 *   <complement>from Drafts</complement> in the <object><a href="/workspaces/4">Q3</a> Workspace</object>
 *
 * The markup comes from the server and is treated as untrusted: the parser never throws, never
 * returns HTML (every output is plain text, tags removed, entities decoded exactly once) and only
 * passes on hrefs that are same-origin paths or http(s) URLs. It uses no DOM, Node or electron API
 * so that it runs in the main process and in the renderer alike.
 */

export type DetailObjectKind = 'workspace' | 'folder' | 'file' | 'unknown';

export interface DetailObject {
  /** The hyperlink's text (the item's name), or the object's whole text when it has no link. */
  text: string;
  /** What follows the link inside the object, e.g. "Folder", "File", "Workspace" ('' if none). */
  label: string;
  /** The href as given when it is a safe relative path or an http(s) URL; otherwise null. */
  href: string | null;
  kind: DetailObjectKind;
  /** The item's id (the workspace id for kind 'workspace'), or null when the href is not recognised. */
  id: number | null;
  workspaceId: number | null;
}

export interface ParsedDetail {
  subject: string;
  predicate: string;
  objects: DetailObject[];
  complement: string;
  /** The whole detail as plain text, whitespace collapsed, e.g. "Ann Lee renamed the Reports Folder from Drafts in the Q3 Workspace". */
  text: string;
}

/**
 * Input beyond this many UTF-16 code units (64 KiB) is ignored: a real detail is a few hundred
 * characters, and the cap bounds the work and the size of the outputs whatever the server sends.
 */
export const MAX_DETAIL_LENGTH = 64 * 1024;

// ---------------------------------------------------------------------------------------------
// Entities

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function isAsciiAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** HTML's ASCII whitespace: tab, LF, FF, CR, space. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/**
 * Decodes `&amp; &lt; &gt; &quot; &apos; &#NNN; &#xHH;` in one left-to-right pass, so the result
 * is never decoded again (`&amp;lt;` gives `&lt;`). A reference without its `;`, an unknown name,
 * and a numeric reference to 0, a surrogate or a value past U+10FFFF stay as written.
 */
function decodeEntities(s: string): string {
  let amp = s.indexOf('&');
  if (amp < 0) return s;
  const out: string[] = [];
  let from = 0;
  const n = s.length;
  while (amp >= 0) {
    let p = amp + 1;
    let decoded: string | null = null;
    if (s.charCodeAt(p) === 0x23 /* # */) {
      p++;
      const hex = s.charCodeAt(p) === 0x78 || s.charCodeAt(p) === 0x58; /* x X */
      if (hex) p++;
      const digitsStart = p;
      let value = 0;
      while (p < n && (hex ? isHexDigit(s.charCodeAt(p)) : isDigit(s.charCodeAt(p)))) {
        // Saturate instead of overflowing: anything past U+10FFFF is out of range anyway.
        if (value <= 0x10ffff) value = value * (hex ? 16 : 10) + parseInt(s.charAt(p), 16);
        p++;
      }
      if (p > digitsStart && s.charCodeAt(p) === 0x3b /* ; */) {
        p++;
        const valid = value > 0 && value <= 0x10ffff && !(value >= 0xd800 && value <= 0xdfff);
        if (valid) decoded = String.fromCodePoint(value);
      }
    } else {
      // The longest name is 4 letters: look at most that far.
      const nameStart = p;
      while (p < n && p - nameStart < 5 && isAsciiAlpha(s.charCodeAt(p))) p++;
      if (s.charCodeAt(p) === 0x3b) {
        const name = s.slice(nameStart, p);
        if (Object.hasOwn(NAMED_ENTITIES, name)) {
          decoded = NAMED_ENTITIES[name] ?? null;
          p++;
        }
      }
    }
    if (decoded !== null) {
      out.push(s.slice(from, amp), decoded);
      from = p;
    }
    // Continue after what was looked at: a reference left as written is not looked at again.
    amp = s.indexOf('&', Math.max(p, amp + 1));
  }
  out.push(s.slice(from));
  return out.join('');
}

// ---------------------------------------------------------------------------------------------
// Tokenizer: a small subset of the HTML tokenizer, enough to take tags apart and find the text.

type Token =
  | { type: 'text'; value: string }
  | { type: 'start'; name: string; attrs: Map<string, string>; selfClosing: boolean }
  | { type: 'end'; name: string };

interface RawTag {
  name: string;
  attrs: Map<string, string>;
  selfClosing: boolean;
  /** The index just past the closing `>`. */
  end: number;
}

/** Elements whose content is not text to show. */
const RAW_TEXT = new Set(['script', 'style']);

/**
 * Reads a tag whose name starts at `p` (just after `<` or `</`). Attribute values may be double-
 * quoted, single-quoted or unquoted; a `>` inside a quoted value does not end the tag. Returns
 * null when the input ends inside the tag (HTML then drops the tag). Every loop moves forward.
 */
function readTag(s: string, p: number): RawTag | null {
  const n = s.length;
  const nameStart = p;
  while (p < n) {
    const c = s.charCodeAt(p);
    if (isSpace(c) || c === 0x2f /* / */ || c === 0x3e /* > */) break;
    p++;
  }
  const name = s.slice(nameStart, p).toLowerCase();
  const attrs = new Map<string, string>();
  let selfClosing = false;
  for (;;) {
    while (p < n && isSpace(s.charCodeAt(p))) p++;
    if (p >= n) return null;
    let c = s.charCodeAt(p);
    if (c === 0x3e) return { name, attrs, selfClosing, end: p + 1 };
    if (c === 0x2f) {
      p++;
      selfClosing = s.charCodeAt(p) === 0x3e;
      continue;
    }
    selfClosing = false;
    // Attribute name: a leading `=` belongs to the name, as in HTML.
    const attrStart = p;
    p++;
    while (p < n) {
      c = s.charCodeAt(p);
      if (isSpace(c) || c === 0x2f || c === 0x3e || c === 0x3d /* = */) break;
      p++;
    }
    const attrName = s.slice(attrStart, p).toLowerCase();
    while (p < n && isSpace(s.charCodeAt(p))) p++;
    let value = '';
    if (s.charCodeAt(p) === 0x3d) {
      p++;
      while (p < n && isSpace(s.charCodeAt(p))) p++;
      if (p >= n) return null;
      const q = s.charCodeAt(p);
      if (q === 0x22 /* " */ || q === 0x27 /* ' */) {
        const close = s.indexOf(q === 0x22 ? '"' : "'", p + 1);
        if (close < 0) return null;
        value = s.slice(p + 1, close);
        p = close + 1;
      } else {
        const valueStart = p;
        while (p < n && !isSpace(s.charCodeAt(p)) && s.charCodeAt(p) !== 0x3e) p++;
        value = s.slice(valueStart, p);
      }
    }
    // As in HTML, the first of two attributes with the same name wins.
    if (!attrs.has(attrName)) attrs.set(attrName, value);
  }
}

/** Whether `s` has `</name` at `lt`, ASCII case-insensitively, followed by a tag-name end. */
function isEndTagOf(s: string, lt: number, name: string): boolean {
  const p = lt + 2;
  if (p + name.length > s.length) return false;
  for (let k = 0; k < name.length; k++) {
    if ((s.charCodeAt(p + k) | 0x20) !== name.charCodeAt(k)) return false;
  }
  const after = s.charCodeAt(p + name.length);
  return Number.isNaN(after) || isSpace(after) || after === 0x2f || after === 0x3e;
}

/** The index of the `<` of the `</name` that ends a raw-text element, or -1. */
function findRawTextEnd(s: string, from: number, name: string): number {
  let p = from;
  for (;;) {
    const lt = s.indexOf('</', p);
    if (lt < 0) return -1;
    if (isEndTagOf(s, lt, name)) return lt;
    p = lt + 2;
  }
}

/**
 * Splits markup into text (entities decoded) and tags, in one forward pass. Comments, `<!…>` and
 * `<?…>` are dropped; a `<` that cannot start a tag is text; the content of script and style
 * elements is dropped; a tag or comment left open at the end of the input is dropped.
 */
function tokenize(s: string, emit: (t: Token) => void): void {
  const n = s.length;
  let i = 0;
  let textStart = 0;
  const flush = (end: number): void => {
    if (end > textStart) emit({ type: 'text', value: decodeEntities(s.slice(textStart, end)) });
  };
  const skipTo = (end: number): void => {
    i = end;
    textStart = end;
  };
  while (i < n) {
    const lt = s.indexOf('<', i);
    if (lt < 0) break;
    const c = s.charCodeAt(lt + 1);
    if (isAsciiAlpha(c)) {
      flush(lt);
      const tag = readTag(s, lt + 1);
      if (!tag) {
        skipTo(n);
        break;
      }
      skipTo(tag.end);
      emit({ type: 'start', name: tag.name, attrs: tag.attrs, selfClosing: tag.selfClosing });
      // As in HTML, `<script/>` still starts a script element.
      if (RAW_TEXT.has(tag.name)) {
        const close = findRawTextEnd(s, i, tag.name);
        const endTag = close < 0 ? null : readTag(s, close + 2);
        skipTo(endTag ? endTag.end : n);
        emit({ type: 'end', name: tag.name });
      }
    } else if (c === 0x2f /* / */) {
      const c2 = s.charCodeAt(lt + 2);
      if (isAsciiAlpha(c2)) {
        flush(lt);
        const tag = readTag(s, lt + 2);
        if (!tag) {
          skipTo(n);
          break;
        }
        skipTo(tag.end);
        emit({ type: 'end', name: tag.name });
      } else if (c2 === 0x3e) {
        flush(lt);
        skipTo(lt + 3); // `</>` is dropped
      } else if (Number.isNaN(c2)) {
        i = lt + 1; // `</` at the very end is text
      } else {
        flush(lt);
        const gt = s.indexOf('>', lt + 2);
        skipTo(gt < 0 ? n : gt + 1); // bogus comment
      }
    } else if (c === 0x21 /* ! */ || c === 0x3f /* ? */) {
      flush(lt);
      if (s.startsWith('<!--', lt)) {
        if (s.startsWith('>', lt + 4)) skipTo(lt + 5);
        else if (s.startsWith('->', lt + 4)) skipTo(lt + 6);
        else {
          const close = s.indexOf('-->', lt + 4);
          skipTo(close < 0 ? n : close + 3);
        }
      } else {
        const gt = s.indexOf('>', lt + 2);
        skipTo(gt < 0 ? n : gt + 1);
      }
    } else {
      i = lt + 1; // a stray `<` is text
    }
  }
  flush(n);
}

// ---------------------------------------------------------------------------------------------
// Hrefs

/** Control, format (zero-width, bidi), separator (spaces, line breaks) characters and `\`. */
const UNSAFE_HREF_CHAR = /[\p{Cc}\p{Cf}\p{Z}\\]/u;
const HTTP_URL = /^https?:\/\/[^/?#]/i;

/**
 * The href, entities decoded, when it is a same-origin path (`/…` but not `//…`) or an http(s)
 * URL with a host; otherwise null. Anything holding whitespace, control or invisible characters
 * or a backslash is refused outright rather than cleaned up, so `java\tscript:`, ` /x` and
 * `/\evil.example` cannot slip through.
 */
function safeHref(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const href = decodeEntities(raw);
  if (href === '' || UNSAFE_HREF_CHAR.test(href)) return null;
  if (href.startsWith('/')) return href.startsWith('//') ? null : href;
  return HTTP_URL.test(href) ? href : null;
}

const ID = /^[0-9]{1,15}$/;

function idOf(segment: string | undefined): number | null {
  return segment !== undefined && ID.test(segment) ? Number(segment) : null;
}

/** Recognises `…/workspaces/W`, `…/workspaces/W/folders/ID` and `…/workspaces/W/files/ID`. */
function classify(href: string | null): Pick<DetailObject, 'kind' | 'id' | 'workspaceId'> {
  const unknown = { kind: 'unknown', id: null, workspaceId: null } as const;
  if (href === null) return unknown;
  let start = 0;
  if (!href.startsWith('/')) {
    // http(s)://host…: the path starts at the first `/` after the `//`.
    const authority = href.indexOf('//') + 2;
    let p = authority;
    while (p < href.length && !'/?#'.includes(href.charAt(p))) p++;
    if (href.charAt(p) !== '/') return unknown;
    start = p;
  }
  let end = href.length;
  for (const stop of ['?', '#']) {
    const at = href.indexOf(stop, start);
    if (at >= 0 && at < end) end = at;
  }
  const segments = href.slice(start, end).split('/');
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  const seg = (k: number): string | undefined => segments[segments.length - k];
  if (segments.length >= 5 && seg(4) === 'workspaces') {
    const workspaceId = idOf(seg(3));
    const id = idOf(seg(1));
    const kind = seg(2) === 'folders' ? 'folder' : seg(2) === 'files' ? 'file' : null;
    if (kind && workspaceId !== null && id !== null) return { kind, id, workspaceId };
  }
  if (segments.length >= 3 && seg(2) === 'workspaces') {
    const workspaceId = idOf(seg(1));
    if (workspaceId !== null) return { kind: 'workspace', id: workspaceId, workspaceId };
  }
  return unknown;
}

// ---------------------------------------------------------------------------------------------
// The parser

type Section = 'subject' | 'predicate' | 'object' | 'complement';
const SECTIONS = new Set<string>(['subject', 'predicate', 'object', 'complement']);

interface ObjectBuilder {
  /** Text before the link (or all of it when there is none), the link's text, text after it. */
  before: string[];
  link: string[];
  after: string[];
  /** 'none': no `<a>` seen yet. */
  linkState: 'none' | 'open' | 'closed';
  rawHref: string | undefined;
}

function collapse(s: string): string {
  const t = s.replace(/[ \t\n\f\r]+/g, ' ');
  const from = t.startsWith(' ') ? 1 : 0;
  const to = t.endsWith(' ') && t.length > from ? t.length - 1 : t.length;
  return t.slice(from, to);
}

function buildObject(o: ObjectBuilder): DetailObject {
  const hasLink = o.linkState !== 'none';
  const href = hasLink ? safeHref(o.rawHref) : null;
  return {
    // The name exactly as given (not trimmed: a name may have spaces at either end).
    text: hasLink ? o.link.join('') : collapse(o.before.join('')),
    label: hasLink ? collapse(o.after.join('')) : '',
    href,
    ...classify(href),
  };
}

function emptyDetail(): ParsedDetail {
  return { subject: '', predicate: '', objects: [], complement: '', text: '' };
}

/**
 * Parses an Event's `detail` markup into plain-text parts. Total: any input (not a string, empty,
 * malformed, hostile, huge) gives a best-effort result and never an exception; a non-string gives
 * the empty result. Runs in time linear in the input, of which only the first
 * {@link MAX_DETAIL_LENGTH} code units are read.
 *
 * Only the outermost `subject`, `predicate`, `object` and `complement` elements count (one of them
 * inside another is read as plain content of the outer one); in an `object`, the first `<a>` is the
 * link. Other tags are removed and their text kept, except for script and style, whose content is
 * dropped.
 */
export function parseDetail(markup: unknown): ParsedDetail {
  if (typeof markup !== 'string' || markup === '') return emptyDetail();
  try {
    return parse(markup);
  } catch {
    // Not expected to happen; the parser promises never to throw.
    return emptyDetail();
  }
}

function parse(markup: string): ParsedDetail {
  let s = markup;
  if (s.length > MAX_DETAIL_LENGTH) {
    // Do not cut a surrogate pair in half.
    const high = s.charCodeAt(MAX_DETAIL_LENGTH - 1);
    s = s.slice(0, high >= 0xd800 && high <= 0xdbff ? MAX_DETAIL_LENGTH - 1 : MAX_DETAIL_LENGTH);
  }

  const all: string[] = [];
  const parts: Record<Exclude<Section, 'object'>, string[]> = {
    subject: [],
    predicate: [],
    complement: [],
  };
  const objects: ObjectBuilder[] = [];
  let current: Section | null = null;
  let depth = 0;
  let object: ObjectBuilder | null = null;

  const open = (section: Section): void => {
    if (section === 'object') {
      object = { before: [], link: [], after: [], linkState: 'none', rawHref: undefined };
      objects.push(object);
    } else if (parts[section].length > 0) {
      parts[section].push(' '); // a second subject (say) is appended to the first
    }
  };

  tokenize(s, (t) => {
    if (t.type === 'text') {
      all.push(t.value);
      if (current === 'object' && object) {
        const o: ObjectBuilder = object;
        (o.linkState === 'none' ? o.before : o.linkState === 'open' ? o.link : o.after).push(
          t.value,
        );
      } else if (current !== null && current !== 'object') {
        parts[current].push(t.value);
      }
      return;
    }
    if (t.type === 'start') {
      if (current === null && SECTIONS.has(t.name)) {
        const section = t.name as Section;
        open(section);
        if (!t.selfClosing) {
          current = section;
          depth = 1;
        }
      } else if (current !== null && t.name === current && !t.selfClosing) {
        depth++;
      } else if (current === 'object' && object && t.name === 'a') {
        const o: ObjectBuilder = object;
        if (o.linkState === 'none') {
          o.linkState = 'open';
          o.rawHref = t.attrs.get('href');
        }
      }
      return;
    }
    if (current !== null && t.name === current) {
      depth--;
      if (depth === 0) {
        current = null;
        if (object) {
          const o: ObjectBuilder = object;
          if (o.linkState === 'open') o.linkState = 'closed';
        }
        object = null;
      }
    } else if (current === 'object' && object && t.name === 'a') {
      const o: ObjectBuilder = object;
      if (o.linkState === 'open') o.linkState = 'closed';
    }
  });

  return {
    subject: collapse(parts.subject.join('')),
    predicate: collapse(parts.predicate.join('')),
    objects: objects.map(buildObject),
    complement: collapse(parts.complement.join('')),
    text: collapse(all.join('')),
  };
}
