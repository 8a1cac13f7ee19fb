// Thunar's custom actions (uca.xml): our <action> written among the person's own, and only ours
// removed. The file is XML Thunar reads leniently; it is read and written back well-formed.
import type * as XmlDomModule from '@xmldom/xmldom';
import type { Document, Element } from '@xmldom/xmldom';
import { UserError } from '../errors/user-error';
import { modeOf, readIfAny, writeAtomically } from './entry-files';
import { labelOf, tooltipOf, translated, type MenuEntry } from './menu-entry';

const UCA_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';

type XmlDom = typeof XmlDomModule;
/** Loaded when Thunar's file is edited, not at every start of the CLI (a double-click waits). */
const loadXmlDom = (): Promise<XmlDom> => import('@xmldom/xmldom');

/**
 * The declaration Thunar itself writes (`<?xml encoding="UTF-8" version="1.0"?>`) is not
 * well-formed XML (version must come first), while Thunar's own reader skips it: it is read
 * aside and a well-formed one written back, so that the file is valid XML afterwards.
 */
function parseUca(xml: XmlDom, text: string, file: string): Document {
  const body = text.replace(/^\uFEFF?\s*<\?xml[^?]*\?>/, '');
  let doc: Document;
  try {
    doc = new xml.DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new Error(message);
      },
    }).parseFromString(body, 'text/xml');
  } catch (err) {
    const why = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    throw new UserError({ key: 'cli.integrate.notXml', params: { file, why: why ?? '' } });
  }
  if (doc.documentElement?.tagName !== 'actions') {
    throw new UserError({ key: 'cli.integrate.notThunar', params: { file } });
  }
  return doc;
}

/** The document whole (comments around <actions> too), one top-level node a line. */
function serializeUca(xml: XmlDom, doc: Document): string {
  const serializer = new xml.XMLSerializer();
  const nodes = Array.from(doc.childNodes)
    .filter((n) => n.nodeType !== n.TEXT_NODE || (n.nodeValue ?? '').trim() !== '')
    .map((n) => serializer.serializeToString(n));
  return UCA_HEADER + nodes.join('\n') + '\n';
}

const isOurs = (action: Element, id: string) =>
  Array.from(action.getElementsByTagName('unique-id')).some(
    (u) => (u.textContent ?? '').trim() === id,
  );

/** Removes the entry's <action> elements (and the line each stood on); returns how many. */
function removeOurs(root: Element, id: string): number {
  let removed = 0;
  for (const node of Array.from(root.childNodes)) {
    if (node.nodeType !== node.ELEMENT_NODE) continue;
    const el = node as Element;
    if (el.tagName !== 'action' || !isOurs(el, id)) continue;
    const before = el.previousSibling;
    if (before && before.nodeType === before.TEXT_NODE && (before.nodeValue ?? '').trim() === '')
      root.removeChild(before);
    root.removeChild(el);
    removed++;
  }
  return removed;
}

function appendOurs(doc: Document, root: Element, entry: MenuEntry, command: string): void {
  const action = doc.createElement('action');
  const others = translated(entry);
  // Only the elements every Thunar knows: an unknown one makes it drop the whole file.
  // A name and a description per language (xml:lang), as Thunar's own uca.xml has them.
  const fields: [string, string, string?][] = [
    ['icon', entry.icon],
    ['name', labelOf(entry)],
    ...others.map((t): [string, string, string] => ['name', t.label, t.lang]),
    ['unique-id', entry.id],
    ['command', command],
    ['description', tooltipOf(entry)],
    ...others.map((t): [string, string, string] => ['description', t.tooltip, t.lang]),
    ['patterns', '*'],
  ];
  for (const [tag, text, lang] of fields) {
    action.appendChild(doc.createTextNode('\n\t'));
    const el = doc.createElement(tag);
    if (lang) el.setAttribute('xml:lang', lang);
    el.appendChild(doc.createTextNode(text));
    action.appendChild(el);
  }
  for (const tag of [
    'directories',
    'audio-files',
    'image-files',
    'other-files',
    'text-files',
    'video-files',
  ]) {
    action.appendChild(doc.createTextNode('\n\t'));
    action.appendChild(doc.createElement(tag));
  }
  action.appendChild(doc.createTextNode('\n'));
  // Before the closing tag, on a line of its own, whatever the file's last text was.
  const last = root.lastChild;
  if (last && last.nodeType === last.TEXT_NODE && (last.nodeValue ?? '').trim() === '') {
    root.insertBefore(doc.createTextNode('\n'), last);
    root.insertBefore(action, last);
  } else {
    root.appendChild(doc.createTextNode('\n'));
    root.appendChild(action);
    root.appendChild(doc.createTextNode('\n'));
  }
}

export async function installThunar(
  file: string,
  entry: MenuEntry,
  command: string,
): Promise<void> {
  const text = await readIfAny(file);
  const xml = await loadXmlDom();
  const doc = parseUca(xml, text ?? '<actions>\n</actions>', file);
  const root = doc.documentElement!;
  removeOurs(root, entry.id);
  appendOurs(doc, root, entry, command);
  const written = serializeUca(xml, doc);
  if (written !== text) await writeAtomically(file, written, await modeOf(file, 0o644));
}

/** False when the file holds no action of ours (or is not there): it is left untouched. */
export async function uninstallThunar(file: string, entry: MenuEntry): Promise<boolean> {
  const text = await readIfAny(file);
  if (text === null) return false;
  const xml = await loadXmlDom();
  const doc = parseUca(xml, text, file);
  const root = doc.documentElement!;
  if (removeOurs(root, entry.id) === 0) return false;
  await writeAtomically(file, serializeUca(xml, doc), await modeOf(file, 0o644));
  return true;
}
