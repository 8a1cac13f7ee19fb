import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localErrorWords, shownPath } from '../../src/main/sync/local-error';
import { describeFailure } from '../../src/main/sync/loop/failure';
import { englishOf, translator, type Words } from '../../src/shared/i18n';

// This computer's errors said by their code (src/main/sync/local-error.ts), the item named by its
// path in the sync folder, in English and German: never "EACCES: permission denied, open '/…'".

const de = translator('de');
const root = path.join(tmpdir(), 'Workspace Sync');
/** A Node file system error as fs makes it. */
const fsError = (code: string, file: string, syscall = 'open'): NodeJS.ErrnoException =>
  Object.assign(new Error(`${code}: something, ${syscall} '${file}'`), {
    code,
    syscall,
    path: file,
    errno: -1,
  });
/** Common English words: none may be left in German around the path. */
const ENGLISH = /\b(the|is|are|not|and|to|it|this|of|on|disk|refused|too|open)\b/i;

describe('this computer’s errors in words', () => {
  const cases: [string, string, string][] = [
    [
      'EACCES',
      'This computer does not allow changing Reports/q3.xlsx (permission denied): check its permissions.',
      'Dieser Computer erlaubt nicht, Reports/q3.xlsx zu ändern (Zugriff verweigert): Prüfen Sie die Berechtigungen.',
    ],
    [
      'ENOSPC',
      'The disk holding Reports/q3.xlsx is full: free some space.',
      'Der Datenträger mit Reports/q3.xlsx ist voll: Geben Sie Platz frei.',
    ],
    [
      'ENAMETOOLONG',
      'The name or path of Reports/q3.xlsx is too long for this computer.',
      'Der Name oder Pfad von Reports/q3.xlsx ist für diesen Computer zu lang.',
    ],
    [
      'EROFS',
      'Reports/q3.xlsx is on a read-only disk: it cannot be changed.',
      'Reports/q3.xlsx liegt auf einem schreibgeschützten Datenträger: Es kann nicht geändert werden.',
    ],
    [
      'EISDIR',
      'A file and a folder are in each other’s way at Reports/q3.xlsx.',
      'Bei Reports/q3.xlsx stehen sich eine Datei und ein Ordner im Weg.',
    ],
    [
      'EMFILE',
      'This computer has too many files open (at Reports/q3.xlsx): close some programs.',
      'Auf diesem Computer sind zu viele Dateien geöffnet (bei Reports/q3.xlsx): Schließen Sie einige Programme.',
    ],
    [
      'EXDEV',
      'This computer refused: EXDEV (Reports/q3.xlsx).',
      'Dieser Computer hat abgelehnt: EXDEV (Reports/q3.xlsx).',
    ],
  ];
  it.each(cases)('%s', (code, english, german) => {
    const words = localErrorWords(fsError(code, path.join(root, 'Reports', 'q3.xlsx')), root)!;
    expect(englishOf(words)).toBe(english);
    expect(de.say(words)).toBe(german);
    expect(de.say(words).replace(/Reports\/q3\.xlsx|EXDEV/g, '')).not.toMatch(ENGLISH);
  });

  it('every code it knows has German words, none naming a path outside the sync folder', () => {
    for (const code of [
      'EPERM',
      'EDQUOT',
      'EBUSY',
      'ENOTDIR',
      'EEXIST',
      'ELOOP',
      'ENOENT',
      'EIO',
    ]) {
      const words = localErrorWords(fsError(code, '/var/lib/state/journal.db'), root)!;
      expect(words.params).toEqual({ path: 'journal.db' });
      expect(de.say(words)).not.toMatch(ENGLISH);
      expect(de.say(words)).not.toContain('/var/lib');
    }
    expect(shownPath(root, root)).toBe(root);
    expect(shownPath(path.join(root, 'a', 'b.txt'), root)).toBe('a/b.txt');
    expect(shownPath(path.join(root, '..', 'elsewhere', 'x'), root)).toBe('x');
    // Not a system call's error: no words (said as it was written).
    expect(localErrorWords(new Error('boom'), root)).toBeNull();
    expect(localErrorWords(Object.assign(new Error('x'), { code: 'UND_ERR_SOCKET' }), root)).toBe(
      null,
    );
  });

  it('a pass that fails on one (a real fs error) says it in German, not Node’s English', () => {
    const dir = path.join(tmpdir(), `engine-words-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'Notes'), 'a file where a folder was expected');
    let err: unknown;
    try {
      openSync(path.join(dir, 'Notes', 'plan.txt'), 'w');
    } catch (e) {
      err = e;
    }
    expect((err as NodeJS.ErrnoException).code).toBe('ENOTDIR');
    const failure = describeFailure(err, dir);
    expect(failure.message).toBe('A file and a folder are in each other’s way at Notes/plan.txt.');
    expect(failure.message).not.toContain(dir);
    expect(de.say(failure.words as Words)).toBe(
      'Bei Notes/plan.txt stehen sich eine Datei und ein Ordner im Weg.',
    );
  });
});

describe('names the scan refuses and files it cannot read, in German', () => {
  it('says each with its own words', () => {
    const said = (words: Words) => [englishOf(words), de.say(words)];
    expect(
      said({ key: 'engine.badName', params: { kind: 'separator', problem: 'separator' } }),
    ).toEqual([
      'This name cannot be synced (it holds a backslash): rename it to sync it.',
      'Dieser Name kann nicht synchronisiert werden (er enthält einen Backslash): Benennen Sie ihn um, um ihn zu synchronisieren.',
    ]);
    // The English of a kind without its own words is as before: the kind itself.
    expect(
      said({ key: 'engine.badName', params: { kind: 'too_long', problem: 'too-long' } }),
    ).toEqual([
      'This name cannot be synced (too-long): rename it to sync it.',
      'Dieser Name kann nicht synchronisiert werden (er ist zu lang): Benennen Sie ihn um, um ihn zu synchronisieren.',
    ]);
    expect(said({ key: 'engine.unreadable', params: { why: 'locked' } })[1]).toBe(
      'Diese Datei kann nicht gelesen werden (ein anderes Programm hat sie gesperrt): Sie bleibt hier, wird nicht hochgeladen und erneut versucht, wenn sie sich ändert, und bei jeder vollständigen Prüfung.',
    );
  });
});
