import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkName } from '../../src/shared/paths';
import {
  type ChildName,
  type VolumeProfile,
  decodeName,
  defaultProfile,
  encodeName,
  fitName,
  foldName,
  isValidLocalName,
  mapChildren,
  probeVolume,
} from '../../src/main/sync/names';
import { mulberry32 } from '../../src/shared/random';

const linux: VolumeProfile = {
  flavor: 'posix',
  caseInsensitive: false,
  normalizationInsensitive: false,
};
const mac: VolumeProfile = {
  flavor: 'posix',
  caseInsensitive: true,
  normalizationInsensitive: true,
};
const windows: VolumeProfile = {
  flavor: 'win32',
  caseInsensitive: true,
  normalizationInsensitive: false,
};
const profiles = { linux, mac, windows };

const ESC = '\u201B';
const NFC_E = '\u00e9';
const NFD_E = 'e\u0301';

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');
const sha8 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex').slice(0, 8);
const wellFormed = (s: string) => !/\p{Cs}/u.test(s);

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function shuffle<T>(random: () => number, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Every case in a table must round-trip and give a valid name, besides the expected one. */
function expectEncodings(profile: VolumeProfile, table: readonly [string, string][]): void {
  for (const [remote, local] of table) {
    const encoded = encodeName(remote, profile);
    expect(encoded, JSON.stringify(remote)).toBe(local);
    expect(isValidLocalName(encoded, profile), JSON.stringify(encoded)).toBe(true);
    expect(decodeName(encoded, profile), JSON.stringify(encoded)).toBe(remote);
  }
}

describe('defaultProfile', () => {
  it('gives the usual profile of each platform', () => {
    expect(defaultProfile('darwin')).toEqual(mac);
    expect(defaultProfile('win32')).toEqual(windows);
    expect(defaultProfile('linux')).toEqual(linux);
    expect(defaultProfile('freebsd')).toEqual(linux);
  });

  it('defaults to this process platform', () => {
    expect(defaultProfile()).toEqual(defaultProfile(process.platform));
  });
});

describe('foldName', () => {
  it('leaves names alone on a sensitive volume', () => {
    for (const name of ['Report', NFD_E, 'A/B/C.TXT']) expect(foldName(name, linux)).toBe(name);
  });

  it('lower-cases on a case-insensitive volume, and only there', () => {
    expect(foldName('Report.DOCX', windows)).toBe('report.docx');
    expect(foldName('Dir/Sub/FILE', windows)).toBe('dir/sub/file');
    // Windows does not ignore normalization.
    expect(foldName(NFD_E, windows)).toBe(NFD_E);
  });

  it('takes NFC on a normalization-insensitive volume', () => {
    const onlyNormalization: VolumeProfile = { ...linux, normalizationInsensitive: true };
    expect(foldName(`Caf${NFD_E}`, onlyNormalization)).toBe(`Caf${NFC_E}`);
    expect(foldName('Café', onlyNormalization)).toBe('Café');
    expect(foldName(`A/CAF${NFD_E}`, mac)).toBe(`a/caf${NFC_E}`);
    expect(foldName(`CAFE\u0301`, mac)).toBe(foldName(`caf${NFC_E}`, mac));
  });
});

describe('isValidLocalName', () => {
  const invalidEverywhere = [
    '',
    '.',
    '..',
    'a/b',
    'a\0b',
    'tab\there',
    'new\nline',
    'del\u007f',
    'back\\slash', // refused by checkName everywhere
    'x'.repeat(256),
    '\ud800lone',
  ];

  it('refuses what no profile can hold', () => {
    for (const profile of Object.values(profiles)) {
      for (const name of invalidEverywhere) {
        expect(isValidLocalName(name, profile), JSON.stringify(name)).toBe(false);
      }
    }
  });

  it('accepts ordinary names everywhere', () => {
    for (const profile of Object.values(profiles)) {
      for (const name of [
        'Report.docx',
        '.hidden',
        '...x',
        'a..b',
        'Café',
        '📁 photos',
        'x'.repeat(255),
      ]) {
        expect(isValidLocalName(name, profile), name).toBe(true);
      }
    }
  });

  it('holds both limits on every profile: 255 UTF-8 bytes and 255 UTF-16 code units', () => {
    const emoji = '😀'.repeat(64); // 256 bytes, 128 code units
    expect(isValidLocalName(emoji, linux)).toBe(false);
    expect(isValidLocalName(emoji, windows)).toBe(false);
    expect(isValidLocalName('😀'.repeat(63) + 'abc', linux)).toBe(true); // 255 bytes
    expect(isValidLocalName('😀'.repeat(63) + 'abc', windows)).toBe(true);
    expect(isValidLocalName('é'.repeat(128), linux)).toBe(false); // 256 bytes
    expect(isValidLocalName('é'.repeat(128), windows)).toBe(false);
    expect(isValidLocalName('a'.repeat(255), windows)).toBe(true);
    expect(isValidLocalName('a'.repeat(256), windows)).toBe(false);
  });

  it('refuses on win32 only the Windows-specific names', () => {
    const windowsOnly = [
      'a<b',
      'a>b',
      'a:b',
      'a"b',
      'a|b',
      'a?b',
      'a*b',
      'trailing.',
      'trailing ',
      'dots...',
      'mixed. .',
      'CON',
      'con',
      'Aux',
      'NUL.txt',
      'nul.tar.gz',
      'CON .txt',
      'PRN',
      'COM0',
      'com9.log',
      'LPT1',
      'lpt\u00b9',
      'COM\u00b2.txt',
      'LPT\u00b3',
      'CONIN$',
      'conout$.x',
    ];
    for (const name of windowsOnly) {
      expect(isValidLocalName(name, windows), name).toBe(false);
      expect(isValidLocalName(name, linux), name).toBe(true);
    }
  });

  it('accepts names that only look like device names', () => {
    for (const name of ['CONSOLE', 'COM', 'COM10', 'LPT', 'AUX1', 'xCON', 'NUL_', '.CON', 'CO N']) {
      expect(isValidLocalName(name, windows), name).toBe(true);
    }
  });

  it('agrees with checkName of shared/paths for every valid name', () => {
    for (const [profileName, profile] of Object.entries(profiles)) {
      for (const name of ['a:b', 'a\\b', 'x'.repeat(255), 'ok', 'CON']) {
        if (isValidLocalName(name, profile)) {
          expect(checkName(name, profile.flavor).ok, `${profileName} ${name}`).toBe(true);
        }
      }
    }
  });
});

describe('encodeName and decodeName', () => {
  it('leaves valid names with nothing to escape unchanged', () => {
    const ordinary = [
      'Report.docx',
      'Q3 plan (final).xlsx',
      '.bashrc',
      'a..b',
      '...x',
      'Café',
      `Caf${NFD_E}`,
      '日本語のファイル名',
      '📁 photos 👩‍👩‍👧',
      'CONSOLE',
      'x'.repeat(255),
    ];
    for (const profile of Object.values(profiles)) {
      for (const name of ordinary) {
        expect(encodeName(name, profile), name).toBe(name);
        expect(decodeName(name, profile), name).toBe(name);
      }
    }
  });

  it('maps controls, DEL, slash and backslash on every profile', () => {
    for (const profile of Object.values(profiles)) {
      expectEncodings(profile, [
        ['a\0b', 'a\u2400b'],
        ['\u0001\u001f', '\u2401\u241f'],
        ['line\nbreak\r', 'line\u240abreak\u240d'],
        ['del\u007f', 'del\u2421'],
        ['a/b', 'a\uFF0Fb'],
        ['../../etc/passwd', '..\uFF0F..\uFF0Fetc\uFF0Fpasswd'],
        ['a\\b', 'a\uFF3Cb'],
        ['\ud800lone', '\u{F0000}lone'],
        ['lone\udfff', 'lone\u{F07FF}'],
      ]);
    }
  });

  it('encodes the names that could address a parent, and the empty name', () => {
    for (const profile of Object.values(profiles)) {
      expectEncodings(profile, [
        ['.', '\uFF0E'],
        ['..', '\uFF0E\uFF0E'],
        ['', ESC],
      ]);
    }
  });

  it('escapes the escape character and the active substitutes on posix', () => {
    expectEncodings(linux, [
      [ESC, ESC + ESC],
      [`a${ESC}b`, `a${ESC}${ESC}b`],
      ['\u2400', ESC + '\u2400'],
      ['\u241f\u2421', `${ESC}\u241f${ESC}\u2421`],
      ['a\uFF0Fb', `a${ESC}\uFF0Fb`],
      ['a\uFF3Cb', `a${ESC}\uFF3Cb`],
      ['\u{F0000}', ESC + '\u{F0000}'],
      // U+FF0E is a substitute on posix only as the whole name.
      ['\uFF0E', ESC + '\uFF0E'],
      ['\uFF0E\uFF0E', `${ESC}\uFF0E${ESC}\uFF0E`],
      ['\uFF0E\uFF0E\uFF0E', '\uFF0E\uFF0E\uFF0E'],
      ['a\uFF0E', 'a\uFF0E'],
    ]);
  });

  it('escapes only the substitutes active on the profile', () => {
    // A Japanese fullwidth colon, a symbol for space and a fullwidth question mark are
    // ordinary characters on posix and substitutes on win32.
    for (const name of ['会議：議事録', 'a\u2420b', 'なぜ\uFF1F', 'x\uFF0Ey', 'COＮ.txt', 'AUｘ']) {
      expect(encodeName(name, linux), name).toBe(name);
      expect(encodeName(name, mac), name).toBe(name);
      expect(encodeName(name, windows), name).not.toBe(name);
      expect(decodeName(encodeName(name, windows), windows), name).toBe(name);
    }
  });

  it('maps the characters Windows refuses to their fullwidth forms on win32 only', () => {
    expectEncodings(windows, [
      ['a<b>c', 'a\uFF1Cb\uFF1Ec'],
      ['C:', 'C\uFF1A'],
      ['say "hi"', 'say \uFF02hi\uFF02'],
      ['a|b', 'a\uFF5Cb'],
      ['why?', 'why\uFF1F'],
      ['*.txt', '\uFF0A.txt'],
      ['a\\b/c', 'a\uFF3Cb\uFF0Fc'],
    ]);
    expectEncodings(linux, [
      ['a<b>c', 'a<b>c'],
      ['C:', 'C:'],
      ['why?', 'why?'],
    ]);
  });

  it('encodes the trailing run of dots and spaces on win32 only', () => {
    expectEncodings(windows, [
      ['name.', 'name\uFF0E'],
      ['name...', 'name\uFF0E\uFF0E\uFF0E'],
      ['name ', 'name\u2420'],
      ['a. .', 'a\uFF0E\u2420\uFF0E'],
      ['a . b. ', 'a . b\uFF0E\u2420'],
      ['   ', '\u2420\u2420\u2420'],
      ['...', '\uFF0E\uFF0E\uFF0E'],
      ['.hidden', '.hidden'],
    ]);
    expectEncodings(linux, [
      ['name.', 'name.'],
      ['name ', 'name '],
      ['...', '...'],
    ]);
  });

  it('escapes the literal substitutes on win32', () => {
    expectEncodings(windows, [
      ['a\uFF1Ab', `a${ESC}\uFF1Ab`],
      ['x\uFF0E', `x${ESC}\uFF0E`],
      // A literal fullwidth dot before an encoded trailing dot stays apart from it.
      ['a\uFF0E.', `a${ESC}\uFF0E\uFF0E`],
      ['a\u2420', `a${ESC}\u2420`],
      ['a\u2420 ', `a${ESC}\u2420\u2420`],
      ['\uFF0E', ESC + '\uFF0E'],
      [`${ESC}.`, `${ESC}${ESC}\uFF0E`],
    ]);
  });

  it('replaces the third character of a reserved device name by its fullwidth form on win32', () => {
    expectEncodings(windows, [
      ['CON', 'CO\uFF2E'],
      ['CON.txt', 'CO\uFF2E.txt'],
      ['con.txt', 'co\uFF4E.txt'],
      ['Aux', 'Au\uFF58'],
      ['PRN', 'PR\uFF2E'],
      ['nul.tar.gz', 'nu\uFF4C.tar.gz'],
      ['CON .txt', 'CO\uFF2E .txt'],
      ['CON.', 'CO\uFF2E\uFF0E'],
      ['AUX ', 'AU\uFF38\u2420'],
      ['COM0', 'CO\uFF2D0'],
      ['com1.log', 'co\uFF4D1.log'],
      ['LPT9', 'LP\uFF349'],
      ['COM\u00b9', 'CO\uFF2D\u00b9'],
      ['lpt\u00b2.txt', 'lp\uFF54\u00b2.txt'],
      ['LPT\u00b3', 'LP\uFF34\u00b3'],
      ['CONIN$', 'CO\uFF2EIN$'],
      ['conout$.txt', 'co\uFF4Eout$.txt'],
    ]);
    // `CON：` is an ordinary file name: the colon is the part that gets encoded.
    expectEncodings(windows, [['CON:', 'CON\uFF1A']]);
    expectEncodings(linux, [
      ['CON', 'CON'],
      ['con.txt', 'con.txt'],
    ]);
  });

  it('escapes a literal fullwidth third character only where it would read as a device name', () => {
    expectEncodings(windows, [
      ['CO\uFF2E', `CO${ESC}\uFF2E`],
      ['CO\uFF2E.txt', `CO${ESC}\uFF2E.txt`],
      ['lp\uFF54\u00b2', `lp${ESC}\uFF54\u00b2`],
      ['CO\uFF2D1 .txt', `CO${ESC}\uFF2D1 .txt`],
      // Not a device name with the fullwidth character put back: nothing to escape.
      ['CO\uFF2Ex', 'CO\uFF2Ex'],
      ['C\uFF2FN', 'C\uFF2FN'],
      ['AB\uFF2E', 'AB\uFF2E'],
    ]);
  });

  it('leaves names that only look like device names alone', () => {
    for (const name of ['CONSOLE', 'COM10', 'COM', 'LPT', 'xNUL', '.CON', 'CON-1.txt', 'AUX1']) {
      expect(encodeName(name, windows), name).toBe(name);
    }
  });

  it('decodes any string without throwing, a dangling escape as itself', () => {
    for (const profile of Object.values(profiles)) {
      expect(decodeName(`a${ESC}`, profile)).toBe(`a${ESC}`);
      expect(decodeName('plain', profile)).toBe('plain');
    }
  });
});

describe('the length rule', () => {
  it('keeps names that fit and shortens the first that does not', () => {
    const fits = 'a'.repeat(251) + '.txt';
    expect(encodeName(fits, linux)).toBe(fits);
    expect(encodeName(fits, windows)).toBe(fits);
    const over = 'a'.repeat(252) + '.txt';
    const expected = 'a'.repeat(255 - 13) + `~${sha8(over)}.txt`;
    expect(encodeName(over, linux)).toBe(expected);
    expect(encodeName(over, windows)).toBe(expected);
    expect(expected.length).toBe(255);
  });

  it('shortens by UTF-8 bytes on every profile (a tree stays valid when copied elsewhere)', () => {
    const name = 'é'.repeat(200); // 400 bytes, 200 code units
    for (const profile of [linux, windows]) {
      const short = encodeName(name, profile);
      expect(short).toBe('é'.repeat(123) + `~${sha8(name)}`);
      expect(utf8(short)).toBeLessThanOrEqual(255);
    }
  });

  it('keeps an extension of 1 to 16 characters and drops longer ones', () => {
    const stem = 'b'.repeat(300);
    expect(encodeName(`${stem}.${'e'.repeat(16)}`, linux)).toMatch(/^b+~[0-9a-f]{8}\.e{16}$/);
    expect(encodeName(`${stem}.${'e'.repeat(17)}`, linux)).toMatch(/^b+~[0-9a-f]{8}$/);
    expect(encodeName(`${stem}.`, linux)).toMatch(/^b+~[0-9a-f]{8}$/);
    expect(encodeName(`.${stem}`, linux)).toMatch(/^\.b+~[0-9a-f]{8}$/);
    for (const name of [`${stem}.txt`, `${stem}.${'e'.repeat(17)}`, `.${stem}`]) {
      expect(utf8(encodeName(name, linux))).toBe(255);
    }
  });

  it('shortens names that only got too long by encoding', () => {
    const name = 'a:'.repeat(100) + ESC.repeat(30); // 230 chars, longer once encoded
    for (const profile of Object.values(profiles)) {
      const encoded = encodeName(name, profile);
      expect(isValidLocalName(encoded, profile)).toBe(true);
      expect(encoded.endsWith(`~${sha8(name)}`)).toBe(true);
    }
  });

  it('never splits a surrogate pair nor an escape from what it escapes', () => {
    for (const profile of Object.values(profiles)) {
      for (let pad = 0; pad < 4; pad++) {
        const emoji = 'x'.repeat(pad) + '😀'.repeat(200) + '.png';
        const encoded = encodeName(emoji, profile);
        expect(wellFormed(encoded)).toBe(true);
        expect(isValidLocalName(encoded, profile)).toBe(true);
        expect(encoded.endsWith(`~${sha8(emoji)}.png`)).toBe(true);
        const escapes = 'x'.repeat(pad) + ESC.repeat(300);
        const stem = encodeName(escapes, profile).split('~')[0] ?? '';
        expect(stem.slice(pad).length % 2, `${pad}`).toBe(0);
      }
    }
  });

  it('gives different names to long names that differ only past the cut', () => {
    const a = encodeName('z'.repeat(300) + 'A.md', linux);
    const b = encodeName('z'.repeat(300) + 'B.md', linux);
    expect(a).not.toBe(b);
    expect(a.slice(0, 240)).toBe(b.slice(0, 240));
  });

  it('keeps long emoji names within 255 UTF-8 bytes, whatever the emoji', () => {
    const random = mulberry32(255);
    const emoji = ['😀', '👩‍👩‍👧', '👍🏽', '🇫🇷', '❤️', '🧑‍💻', 'é', ' ', '.', ':'];
    for (let i = 0; i < 300; i++) {
      const count = 40 + Math.floor(random() * 200);
      let name = '';
      for (let j = 0; j < count; j++) name += pick(random, emoji);
      for (const profile of Object.values(profiles)) {
        const encoded = encodeName(name, profile);
        expect(wellFormed(encoded)).toBe(true);
        expect(isValidLocalName(encoded, profile), JSON.stringify(name)).toBe(true);
        if (profile.flavor === 'posix') expect(utf8(encoded)).toBeLessThanOrEqual(255);
        else expect(encoded.length).toBeLessThanOrEqual(255);
      }
    }
  });
});

describe("fitName: a name made from a person's, within 255 bytes", () => {
  const insert = ' (conflict 2026-11-29 063651 vm)';

  it('leaves the name whole when it fits, the insert before the extension of a file', () => {
    expect(fitName('plan.txt', insert, 'file', linux)).toBe(`plan${insert}.txt`);
    expect(fitName('plan.txt', insert, 'folder', linux)).toBe(`plan.txt${insert}`);
    expect(fitName('archive.tar.gz', ' (2)', 'file', linux)).toBe('archive.tar (2).gz');
  });

  it('cuts the stem of a 255-byte name, keeping the extension', () => {
    const long = 'L'.repeat(251) + '.txt';
    const made = fitName(long, insert, 'file', linux);
    expect(utf8(made)).toBe(255);
    expect(made).toBe('L'.repeat(255 - utf8(insert) - 4) + insert + '.txt');
    expect(isValidLocalName(made, linux)).toBe(true);
  });

  it('counts bytes, never cutting inside a multi-byte character or a surrogate pair', () => {
    for (let pad = 0; pad < 4; pad++) {
      for (const char of ['é', '日', '😀', '👩‍👩‍👧']) {
        const name = 'x'.repeat(pad) + char.repeat(120) + '.pdf';
        const made = fitName(name, ' (2)', 'file', linux);
        expect(utf8(made), `${pad} ${char}`).toBeLessThanOrEqual(255);
        expect(utf8(made), `${pad} ${char}`).toBeGreaterThan(255 - 4 * 2 - 8);
        expect(wellFormed(made)).toBe(true);
        // Only whole code points of the original before the insert.
        expect(name.startsWith(made.slice(0, -' (2).pdf'.length))).toBe(true);
        expect(made.endsWith(' (2).pdf')).toBe(true);
      }
    }
  });

  it('puts the insert at the end past a long extension, of a name without one and of a dotfile', () => {
    const longExt = 'a.' + 'e'.repeat(250);
    const made = fitName(longExt, ' (2)', 'file', linux);
    expect(made).toBe(longExt.slice(0, 251) + ' (2)');
    const plain = 'n'.repeat(255);
    expect(fitName(plain, ' (3)', 'file', linux)).toBe('n'.repeat(251) + ' (3)');
    const dotfile = '.' + 'd'.repeat(254);
    expect(fitName(dotfile, ' (2)', 'file', linux)).toBe('.' + 'd'.repeat(250) + ' (2)');
    expect(fitName('.bashrc', ' (2)', 'file', linux)).toBe('.bashrc (2)');
  });

  it('holds 255 UTF-16 units too, and gives different names for different numbers', () => {
    const name = '😀'.repeat(100) + '.txt';
    const two = fitName(name, ' (2)', 'file', windows);
    const three = fitName(name, ' (3)', 'file', windows);
    for (const made of [two, three]) {
      expect(made.length).toBeLessThanOrEqual(255);
      expect(utf8(made)).toBeLessThanOrEqual(255);
    }
    expect(two).not.toBe(three);
  });
});

describe('encodeName and decodeName: seeded round-trip property', () => {
  const alphabet = [
    'a',
    'B',
    'z',
    '0',
    '.',
    ' ',
    '/',
    '\\',
    '<',
    '>',
    ':',
    '"',
    '|',
    '?',
    '*',
    '\0',
    '\u0001',
    '\t',
    '\n',
    '\u001f',
    '\u007f',
    ESC,
    '\u2400',
    '\u241f',
    '\u2420',
    '\u2421',
    '\uFF0E',
    '\uFF0F',
    '\uFF3C',
    '\uFF1A',
    '\uFF1C',
    '\uFF1F',
    '\uFF0A',
    '\uFF2E',
    '\uFF4E',
    '\uFF38',
    '\uFF2D',
    'N',
    'n',
    'C',
    'O',
    'o',
    'M',
    'L',
    'P',
    'T',
    'U',
    'X',
    'A',
    '1',
    '\u00b9',
    '$',
    'é',
    NFD_E,
    '日',
    '😀',
    '👩‍👧',
    '\u{F0000}',
    '\ud800',
    '\udc00',
  ];
  const prefixes = ['', '', '', 'CON', 'con', 'Aux', 'NUL', 'COM', 'lpt', 'CO', '.', '..'];

  function randomName(random: () => number): string {
    const long = random() < 0.05;
    const count = long ? 100 + Math.floor(random() * 200) : Math.floor(random() * 12);
    let name = pick(random, prefixes);
    for (let i = 0; i < count; i++) name += pick(random, alphabet);
    return name;
  }

  for (const [profileName, profile] of Object.entries(profiles)) {
    it(`holds for 4000 random names on ${profileName}`, () => {
      const random = mulberry32(0x5eed + profileName.length);
      const seen = new Map<string, string>();
      let shortened = 0;
      for (let i = 0; i < 4000; i++) {
        const name = randomName(random);
        const encoded = encodeName(name, profile);
        expect(isValidLocalName(encoded, profile), JSON.stringify(name)).toBe(true);
        expect(checkName(encoded, profile.flavor).ok, JSON.stringify(name)).toBe(true);
        expect(encodeName(name, profile)).toBe(encoded);
        if (encoded.includes(`~${sha8(name)}`)) {
          shortened++;
          continue;
        }
        // 36 code points can never exceed 255 bytes, even all escaped 4-byte characters.
        expect(Array.from(name).length > 36 || !encoded.includes('~')).toBe(true);
        expect(decodeName(encoded, profile), JSON.stringify(encoded)).toBe(name);
        // Injective: two remote names never share an encoding.
        const other = seen.get(encoded);
        if (other !== undefined) expect(other).toBe(name);
        seen.set(encoded, name);
      }
      expect(shortened).toBeGreaterThan(0);
      expect(seen.size).toBeGreaterThan(2500);
    });
  }
});

describe('mapChildren', () => {
  const file = (id: number, name: string, keep?: string): ChildName =>
    keep === undefined ? { id, name, kind: 'file' } : { id, name, kind: 'file', keep };
  const folder = (id: number, name: string, keep?: string): ChildName =>
    keep === undefined ? { id, name, kind: 'folder' } : { id, name, kind: 'folder', keep };

  function expectDistinct(names: Map<number, string>, profile: VolumeProfile): void {
    const folded = [...names.values()].map((n) => foldName(n, profile));
    expect(new Set(folded).size).toBe(folded.length);
    for (const name of names.values()) expect(isValidLocalName(name, profile), name).toBe(true);
  }

  it('maps plain names to their encoding', () => {
    const names = mapChildren([file(1, 'a.txt'), folder(2, 'b:c'), file(3, 'CON.txt')], windows);
    expect(names).toEqual(
      new Map([
        [1, 'a.txt'],
        [2, 'b\uFF1Ac'],
        [3, 'CO\uFF2E.txt'],
      ]),
    );
    expect(mapChildren([], linux)).toEqual(new Map());
  });

  it('separates two siblings with exactly the same name, the lower id keeping it', () => {
    for (const profile of Object.values(profiles)) {
      const names = mapChildren([file(9, 'a.txt'), file(4, 'a.txt'), file(7, 'a.txt')], profile);
      expect(names).toEqual(
        new Map([
          [4, 'a.txt'],
          [7, 'a (2).txt'],
          [9, 'a (3).txt'],
        ]),
      );
    }
  });

  it('separates a folder and a file of the same name, suffixing a folder at the end', () => {
    const names = mapChildren([file(2, 'notes.txt'), folder(1, 'notes.txt')], linux);
    expect(names.get(1)).toBe('notes.txt');
    expect(names.get(2)).toBe('notes (2).txt');
    const reversed = mapChildren([file(1, 'notes.txt'), folder(2, 'notes.txt')], linux);
    expect(reversed.get(2)).toBe('notes.txt (2)');
  });

  it('separates names that differ only by case where case does not count', () => {
    const children = [file(1, 'Report.docx'), file(2, 'report.docx'), folder(3, 'REPORT.docx')];
    expect(mapChildren(children, windows)).toEqual(
      new Map([
        [1, 'Report.docx'],
        [2, 'report (2).docx'],
        [3, 'REPORT.docx (2)'],
      ]),
    );
    expectDistinct(mapChildren(children, mac), mac);
    // Where case counts they are three names already.
    expect([...mapChildren(children, linux).values()]).toEqual([
      'Report.docx',
      'report.docx',
      'REPORT.docx',
    ]);
  });

  it('separates names that differ only by normalization where it does not count', () => {
    const children = [folder(1, `Caf${NFD_E}`), folder(2, `Caf${NFC_E}`), folder(3, `CAF${NFD_E}`)];
    const names = mapChildren(children, mac);
    expect(names.get(1)).toBe(`Caf${NFD_E}`);
    expect(names.get(2)).toBe(`Caf${NFC_E} (2)`);
    expect(names.get(3)).toBe(`CAF${NFD_E} (3)`);
    expectDistinct(names, mac);
    // On Linux and Windows NFC and NFD are different names.
    expect(mapChildren(children.slice(0, 2), linux).get(2)).toBe(`Caf${NFC_E}`);
    expect(mapChildren(children.slice(0, 2), windows).get(2)).toBe(`Caf${NFC_E}`);
  });

  it('separates names that only collide once encoded', () => {
    // A literal `：` is escaped, so only `a:b` and `A:B` collide (by case).
    const names = mapChildren([file(1, 'a:b'), file(2, 'a\uFF1Ab'), file(3, 'A:B')], windows);
    expect(names.get(1)).toBe('a\uFF1Ab');
    expect(names.get(2)).toBe(`a${ESC}\uFF1Ab`);
    expect(names.get(3)).toBe('A\uFF1AB (2)');
  });

  it('does not reuse a suffix a sibling already holds', () => {
    const names = mapChildren([file(1, 'a.txt'), file(2, 'a (2).txt'), file(3, 'a.txt')], linux);
    expect(names.get(2)).toBe('a (2).txt');
    expect(names.get(3)).toBe('a (3).txt');
  });

  it('avoids the reserved names, compared folded', () => {
    const reserved = new Set([foldName('Journal.db', windows), 'desktop.ini']);
    const names = mapChildren(
      [file(1, 'JOURNAL.DB'), file(2, 'desktop.ini'), file(3, 'other')],
      windows,
      reserved,
    );
    expect(names.get(1)).toBe('JOURNAL (2).DB');
    expect(names.get(2)).toBe('desktop (2).ini');
    expect(names.get(3)).toBe('other');
    // Case counts on Linux: only the exact folded name is reserved.
    const onLinux = mapChildren([file(1, 'JOURNAL.DB'), file(2, 'journal.db')], linux, reserved);
    expect(onLinux.get(1)).toBe('JOURNAL.DB');
    expect(onLinux.get(2)).toBe('journal (2).db');
  });

  it('keeps the local name of an item already synced when a new sibling arrives', () => {
    // Item 8 was synced as `Report`; item 3 (lower id) arrives with the same name folded.
    const names = mapChildren([folder(8, 'Report', 'Report'), folder(3, 'report')], windows);
    expect(names.get(8)).toBe('Report');
    expect(names.get(3)).toBe('report (2)');
    // Without the journal the lower id would have won.
    expect(mapChildren([folder(8, 'Report'), folder(3, 'report')], windows).get(3)).toBe('report');
  });

  it('keeps a disambiguated local name while the name it came from is unchanged', () => {
    // `a (2).txt` was given because a sibling held `a.txt`; the sibling is gone now.
    const names = mapChildren([file(5, 'a.txt', 'a (2).txt'), file(6, 'b.txt')], linux);
    expect(names.get(5)).toBe('a (2).txt');
    const long = 'L'.repeat(300) + '.txt';
    const longKeep = mapChildren([file(1, long), file(2, long)], linux).get(2) ?? '';
    expect(longKeep).toMatch(/ \(2\)\.txt$/);
    expect(mapChildren([file(2, long, longKeep)], linux).get(2)).toBe(longKeep);
  });

  it('drops a keep that no longer matches the remote name', () => {
    // Renamed remotely, including a case-only rename on a case-insensitive volume.
    expect(mapChildren([file(1, 'new.txt', 'old.txt')], linux).get(1)).toBe('new.txt');
    expect(mapChildren([file(1, 'README', 'readme')], windows).get(1)).toBe('README');
    expect(mapChildren([file(1, 'a.txt', 'a (02).txt')], linux).get(1)).toBe('a.txt');
    expect(mapChildren([file(1, 'a.txt', 'a.txt (2)')], linux).get(1)).toBe('a.txt');
    // The keep on a volume that ignores normalization may differ by it only.
    expect(mapChildren([file(1, `Caf${NFC_E}`, `Caf${NFD_E}`)], mac).get(1)).toBe(`Caf${NFD_E}`);
  });

  it('drops a keep that is invalid, reserved or already held', () => {
    expect(mapChildren([file(1, 'a:b', 'a:b')], windows).get(1)).toBe('a\uFF1Ab');
    expect(mapChildren([file(1, 'x', 'x')], linux, new Set(['x'])).get(1)).toBe('x (2)');
    const names = mapChildren([file(2, 'same', 'same'), file(1, 'same', 'same')], linux);
    expect(names).toEqual(
      new Map([
        [1, 'same'],
        [2, 'same (2)'],
      ]),
    );
  });

  it('keeps every name within the length limit when it adds a suffix', () => {
    const long = '😀'.repeat(120) + '.txt';
    const children = Array.from({ length: 12 }, (_, i) => file(i + 1, long));
    for (const profile of Object.values(profiles)) {
      const names = mapChildren(children, profile);
      expectDistinct(names, profile);
      expect(names.get(12)).toMatch(/ \(12\)\.txt$/);
      for (const name of names.values()) expect(wellFormed(name)).toBe(true);
    }
  });

  it('stays linear for many siblings of the same name', () => {
    const children = Array.from({ length: 5000 }, (_, i) => file(i, 'same.txt'));
    const names = mapChildren(children, windows);
    expect(names.get(4999)).toBe('same (5000).txt');
    expectDistinct(names, windows);
  });

  it('refuses duplicate ids', () => {
    expect(() => mapChildren([file(1, 'a'), file(1, 'b')], linux)).toThrow(/duplicate/);
  });

  it('does not depend on the input order', () => {
    const random = mulberry32(42);
    const pool = [
      'a.txt',
      'A.TXT',
      'a (2).txt',
      'CON',
      'con',
      `Caf${NFD_E}`,
      'Café',
      'x:y',
      'x\uFF1Ay',
    ];
    const children: ChildName[] = [];
    for (let id = 1; id <= 40; id++) {
      const name = pick(random, pool);
      const kind = random() < 0.5 ? 'file' : 'folder';
      const keep = random() < 0.3 ? pick(random, [...pool, 'a (3).txt', 'x (2)']) : undefined;
      children.push(keep === undefined ? { id, name, kind } : { id, name, kind, keep });
    }
    for (const profile of Object.values(profiles)) {
      const expected = mapChildren(children, profile);
      expect(expected.size).toBe(children.length);
      expectDistinct(expected, profile);
      for (let i = 0; i < 30; i++) {
        expect(mapChildren(shuffle(random, children), profile)).toEqual(expected);
      }
    }
  });
});

describe('probeVolume', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wsync-names-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('detects the temporary volume and leaves no probe behind', async () => {
    await writeFile(path.join(dir, 'mine.txt'), 'x');
    const profile = await probeVolume(dir);
    expect(profile.flavor).toBe(process.platform === 'win32' ? 'win32' : 'posix');
    if (process.platform === 'linux') {
      expect(profile).toEqual({
        flavor: 'posix',
        caseInsensitive: false,
        normalizationInsensitive: false,
      });
    }
    expect(await readdir(dir)).toEqual(['mine.txt']);
  });

  it('falls back to the platform default when it cannot probe', async () => {
    const missing = path.join(dir, 'does-not-exist');
    expect(await probeVolume(missing)).toEqual(defaultProfile());
    expect(await readdir(dir)).toEqual([]);
  });
});
