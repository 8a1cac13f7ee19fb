/**
 * An event's sentence in the reader's language. The service writes every event in English
 * markup (`detail`, parsed by detail.ts into subject, predicate, objects and complement); its
 * vocabulary is small and fixed (src/service: `predicate: '…'`), so each predicate, object label
 * and complement shape the service writes has catalog words (`event.*`). What it does not know
 * (a newer service's verb, a label it never wrote) is said as written, never dropped.
 *
 * English is said exactly as the service wrote the parts. Other languages get a whole sentence
 * from the catalog: the object's name and the people's data are placeholders, so the window can
 * make the name a button and mark user data, and word order is the language's own ("Ann Lee hat
 * die Datei a.md hochgeladen"). Pure: the window and the main process both use it.
 */
import type { MessageKey, Translator } from './i18n';

/** What the sentence needs of a parsed event (ParsedDetail, ActivityEvent). */
export interface EventParts {
  subject: string;
  predicate: string;
  objects: readonly { text: string; label: string; kind: string }[];
  complement: string;
}

/** A piece of a said sentence. */
export type EventPart =
  | { type: 'text'; text: string }
  /** Who did it: a person's name (user data). */
  | { type: 'subject'; text: string }
  /**
   * The object at `index` of the event's objects (its name is user data); `labeled`: its label
   * follows the name (English, as the service writes it), else the words around it hold it.
   */
  | { type: 'object'; index: number; labeled?: boolean }
  /** Other user data from the complement: an old name, an email, a comment's excerpt. */
  | { type: 'data'; text: string };

/** The service's predicates (as it writes them, lower case) and their catalog names. */
const PREDICATES = {
  created: 'created',
  uploaded: 'uploaded',
  viewed: 'viewed',
  downloaded: 'downloaded',
  updated: 'updated',
  deleted: 'deleted',
  renamed: 'renamed',
  moved: 'moved',
  'commented on': 'commented',
  'deleted a comment on': 'commentDeleted',
  'updated the link of': 'linkUpdated',
  'invited a user to': 'invited',
  'removed a member from': 'memberRemoved',
  'changed a role in': 'roleChanged',
} as const;
type Verb = (typeof PREDICATES)[keyof typeof PREDICATES];

/** The service's predicates, for tests that check each one has words. */
export const KNOWN_PREDICATES: readonly string[] = Object.keys(PREDICATES);

/** The catalog's name of a predicate the service writes, matched after trimming, any case. */
export function verbOf(predicate: string): Verb | null {
  const p = predicate.trim().replace(/\s+/g, ' ').toLowerCase();
  return Object.hasOwn(PREDICATES, p) ? PREDICATES[p as keyof typeof PREDICATES] : null;
}

/** The person who did it: the service's "Someone with the link" is said in the language. */
export function subjectOf(tr: Translator, subject: string): string {
  return subject.trim().toLowerCase() === 'someone with the link' ? tr.t('event.someone') : subject;
}

const KINDS = new Set(['file', 'folder', 'workspace']);

/** The object's kind for its label: by the link, else by the service's label ("Folder"). */
function kindOf(o: { label: string; kind: string }): string {
  if (KINDS.has(o.kind)) return o.kind;
  const l = o.label.trim().toLowerCase();
  return KINDS.has(l) ? l : 'other';
}

/** The object's label ("Datei"): as written in English, or when the service's label is unknown. */
export function labelOf(tr: Translator, o: { label: string; kind: string }): string {
  if (tr.lang === 'en' || !o.label) return o.label;
  return tr.t('event.label', { kind: kindOf(o), label: o.label });
}

/** The burst's and the notice's verb: "hochgeladen"; an unknown one as the service wrote it. */
export function didOf(tr: Translator, predicate: string): string {
  const verb = tr.lang === 'en' ? null : verbOf(predicate);
  return verb ? tr.t(`event.did.${verb}`) : predicate;
}

// Placeholders in a formatted message: private-use characters no catalog message holds.
const OPEN = '\uE000';
const CLOSE = '\uE001';
const SLOT = /\uE000(\d+)\uE001/;

/** Splits a message formatted with slots into parts. */
function split(said: string, slots: readonly EventPart[]): EventPart[] {
  const pieces = said.split(SLOT);
  const parts: EventPart[] = [];
  pieces.forEach((piece, i) => {
    if (i % 2 === 1) parts.push(slots[Number(piece)]!);
    else if (piece) parts.push({ type: 'text', text: piece });
  });
  return parts;
}

/** Builds a message's parameters whose values are parts: each becomes a slot. */
function slotter() {
  const slots: EventPart[] = [];
  const slot = (part: EventPart): string => `${OPEN}${slots.push(part) - 1}${CLOSE}`;
  return { slots, slot };
}

/**
 * The complement in the language, by the shape the service gives it for the verb: "from X"
 * (renamed, moved, a workspace renamed), "EMAIL as ROLE" (invited), "MEMBER from A to B" (a role
 * changed), a quoted excerpt (a comment); anything else (a member's email) is data, as written.
 * `shape` is 'from' for "from X" (`from` the old name), else 'other'.
 */
function complementOf(
  tr: Translator,
  verb: Verb | null,
  complement: string,
  slot: (p: EventPart) => string,
): { said: string; shape: 'from' | 'other'; from?: string } {
  const data = (text: string) => slot({ type: 'data', text });
  const role = (name: string) => {
    const key = `members.roleName.${name}`;
    return Object.hasOwn(ROLE_KEYS, key) ? tr.t(key as MessageKey) : name;
  };
  const said = (text: string) => ({ said: text, shape: 'other' as const });
  let m: RegExpMatchArray | null;
  if ((verb === 'renamed' || verb === 'updated') && (m = /^from (.+)$/s.exec(complement)))
    return {
      said: tr.t('event.complement.from', { name: data(m[1]!) }),
      shape: 'from',
      from: m[1]!,
    };
  if (verb === 'moved' && (m = /^from (.+)$/s.exec(complement)))
    return { said: tr.t('event.complement.movedFrom', { name: data(m[1]!) }), shape: 'from' };
  if (verb === 'invited' && (m = /^(.+) as (\w+)$/s.exec(complement)))
    return said(tr.t('event.complement.invited', { email: data(m[1]!), role: role(m[2]!) }));
  if (verb === 'roleChanged' && (m = /^(.+) from (\w+) to (\w+)$/s.exec(complement)))
    return said(
      tr.t('event.complement.role', { member: data(m[1]!), from: role(m[2]!), to: role(m[3]!) }),
    );
  if ((verb === 'commented' || verb === 'commentDeleted') && (m = /^"(.*)"$/s.exec(complement)))
    return said(tr.t('event.complement.quote', { text: data(m[1]!) }));
  return said(data(complement));
}

/** The roles the service names (conventions, "Roles"), whose names the catalog has. */
const ROLE_KEYS: Readonly<Record<string, true>> = Object.fromEntries(
  ['Administrator', 'Moderator', 'Collaborator', 'Creator', 'Downloader', 'Printer', 'Viewer'].map(
    (r) => [`members.roleName.${r}`, true],
  ),
);

/** The object as a phrase of the language, its name a slot: "die Datei {name}" (by case). */
function objectPhrases(tr: Translator, o: { label: string; kind: string }, name: string) {
  const params = { kind: kindOf(o), label: o.label || '', name };
  return {
    object: tr.t('event.object.acc', params),
    objectDat: tr.t('event.object.dat', params),
    objectZu: tr.t('event.object.zu', params),
    objectIn: tr.t('event.object.in', params),
  };
}

/**
 * The event's sentence: who did what to the first object, and the complement. The further
 * objects (the workspace) are for the caller to add, each as {@link namedParts}. In English the
 * parts are the service's own, in its order.
 */
export function sentenceParts(tr: Translator, e: EventParts): EventPart[] {
  const first = e.objects[0];
  if (tr.lang === 'en') {
    const parts: EventPart[] = [
      { type: 'subject', text: e.subject },
      { type: 'text', text: ` ${e.predicate} ` },
    ];
    if (first) parts.push({ type: 'object', index: 0, labeled: true });
    if (e.complement) parts.push({ type: 'text', text: ' ' }, { type: 'data', text: e.complement });
    return parts;
  }
  const { slots, slot } = slotter();
  const verb = verbOf(e.predicate);
  const subject = slot({ type: 'subject', text: subjectOf(tr, e.subject) });
  const name = first ? slot({ type: 'object', index: 0 }) : '';
  const complement = e.complement ? complementOf(tr, verb, e.complement, slot) : null;
  const params = {
    subject,
    c: complement ? complement.shape : 'none',
    complement: complement?.said ?? '',
    predicate: e.predicate,
    name,
    // A rename's object as it was called before ("den Ordner Drafts in Reports umbenannt").
    before:
      first && complement?.from !== undefined
        ? tr.t('event.object.acc', {
            kind: kindOf(first),
            label: first.label,
            name: slot({ type: 'data', text: complement.from }),
          })
        : '',
    ...(first
      ? objectPhrases(tr, first, name)
      : { object: '', objectDat: '', objectZu: '', objectIn: '' }),
  };
  const said =
    verb && first
      ? tr.t(`event.line.${verb}`, params)
      : tr.t('event.line.other', {
          ...params,
          // A known verb without an object (not one the service writes) still in the language.
          predicate: didOf(tr, e.predicate),
          o: first ? 'some' : 'none',
          object: first ? tr.t('event.named', { label: labelOf(tr, first), name }) : '',
        });
  return split(said.replace(/ {2,}/g, ' ').trim(), slots);
}

/** A burst's member: the object and the complement, without who and what (the burst says it). */
export function compactParts(tr: Translator, e: EventParts): EventPart[] {
  const first = e.objects[0];
  if (!first) return [];
  if (tr.lang === 'en') {
    const parts: EventPart[] = [{ type: 'object', index: 0, labeled: true }];
    if (e.complement) parts.push({ type: 'text', text: ' ' }, { type: 'data', text: e.complement });
    return parts;
  }
  const { slots, slot } = slotter();
  const object = tr.t('event.named', {
    label: labelOf(tr, first),
    name: slot({ type: 'object', index: 0 }),
  });
  const complement = e.complement
    ? complementOf(tr, verbOf(e.predicate), e.complement, slot).said
    : '';
  return split(
    tr.t('event.compact', { object, c: complement ? 'some' : 'none', complement }),
    slots,
  );
}

/** An object with its label in the language's order: "Q3 Workspace", "Arbeitsbereich Q3". */
export function namedParts(tr: Translator, e: EventParts, index: number): EventPart[] {
  const o = e.objects[index];
  if (!o) return [];
  const label = labelOf(tr, o);
  if (tr.lang === 'en' || !label) return [{ type: 'object', index, labeled: true }];
  const { slots, slot } = slotter();
  return split(tr.t('event.named', { label, name: slot({ type: 'object', index }) }), slots);
}

/** The whole line as plain text (the tray, a notice): the sentence, then " · " and each further object. */
export function eventText(tr: Translator, e: EventParts): string {
  const text = (parts: EventPart[]) =>
    parts
      .map((p) => {
        if (p.type !== 'object') return p.text;
        const o = e.objects[p.index];
        return o && p.labeled && o.label ? `${o.text} ${o.label}` : (o?.text ?? '');
      })
      .join('');
  return [
    text(sentenceParts(tr, e)),
    ...e.objects.slice(1).map((_, i) => text(namedParts(tr, e, i + 1))),
  ].join(' · ');
}
