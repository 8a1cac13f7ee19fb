import { describe, expect, it } from 'vitest';
import {
  UnsafePathError,
  checkName,
  isInsideRoot,
  joinUnderRoot,
  resolveRelativeUnderRoot,
} from '../../src/shared/paths';

const hostile = [
  '',
  '.',
  '..',
  '../etc',
  'a/../../b',
  '/etc/passwd',
  'a\\..\\b',
  'evil\0name',
  'line\nbreak',
  'x'.repeat(256),
];

describe('checkName', () => {
  it('accepts ordinary names, including Unicode, emoji, spaces and dots inside', () => {
    for (const name of [
      'Reports',
      'Q3 plan.docx',
      'Café',
      '📁 photos',
      '...x',
      '.hidden',
      'a..b',
    ]) {
      expect(checkName(name)).toEqual({ ok: true });
    }
  });

  it('names the problem of each hostile name', () => {
    expect(checkName('')).toEqual({ ok: false, problem: 'empty' });
    expect(checkName('.')).toEqual({ ok: false, problem: 'dot' });
    expect(checkName('..')).toEqual({ ok: false, problem: 'dot-dot' });
    expect(checkName('a/b')).toEqual({ ok: false, problem: 'separator' });
    expect(checkName('a\\b')).toEqual({ ok: false, problem: 'separator' });
    expect(checkName('a\0b')).toEqual({ ok: false, problem: 'nul' });
    expect(checkName('a\u001bb')).toEqual({ ok: false, problem: 'control' });
    expect(checkName('x'.repeat(256))).toEqual({ ok: false, problem: 'too-long' });
    expect(checkName('x'.repeat(255))).toEqual({ ok: true });
  });

  it('refuses drive letters and alternate data streams only on Windows', () => {
    expect(checkName('C:', 'win32')).toEqual({ ok: false, problem: 'drive-or-stream' });
    expect(checkName('file.txt:secret', 'win32')).toEqual({
      ok: false,
      problem: 'drive-or-stream',
    });
    expect(checkName('10:30 meeting')).toEqual({ ok: true });
  });
});

describe('joinUnderRoot', () => {
  it('joins plain names below the root', () => {
    expect(joinUnderRoot('/home/ann/Sync', ['Reports', 'Q3.pdf'])).toBe(
      '/home/ann/Sync/Reports/Q3.pdf',
    );
    expect(joinUnderRoot('/home/ann/Sync/', ['a'])).toBe('/home/ann/Sync/a');
    expect(joinUnderRoot('/home/ann/Sync', [])).toBe('/home/ann/Sync');
    expect(joinUnderRoot('/', ['a'])).toBe('/a');
    expect(joinUnderRoot('C:\\Users\\ann\\Sync', ['a', 'b'], 'win32')).toBe(
      'C:\\Users\\ann\\Sync\\a\\b',
    );
    expect(joinUnderRoot('C:\\', ['a'], 'win32')).toBe('C:\\a');
  });

  it('never yields a path outside the root, whatever the server sends', () => {
    for (const flavor of ['posix', 'win32'] as const) {
      const root = flavor === 'posix' ? '/sync/root' : 'C:\\sync\\root';
      for (const name of hostile) {
        expect(() => joinUnderRoot(root, ['ok', name], flavor)).toThrow(UnsafePathError);
      }
      // Everything that is accepted lands inside the root.
      for (const name of ['a', 'b c', 'ü', '..a', 'a..']) {
        expect(isInsideRoot(root, joinUnderRoot(root, ['x', name], flavor), flavor)).toBe(true);
      }
    }
  });

  it('puts the offending segment and the reason in the error', () => {
    try {
      joinUnderRoot('/r', ['..']);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(UnsafePathError);
      expect((e as UnsafePathError).problem).toBe('dot-dot');
      expect((e as Error).message).toContain('".."');
    }
  });
});

describe('resolveRelativeUnderRoot', () => {
  it('splits relative paths and refuses absolute or climbing ones', () => {
    expect(resolveRelativeUnderRoot('/r', 'a/b/c.txt')).toBe('/r/a/b/c.txt');
    expect(resolveRelativeUnderRoot('C:\\r', 'a/b\\c.txt', 'win32')).toBe('C:\\r\\a\\b\\c.txt');
    expect(() => resolveRelativeUnderRoot('/r', '/etc/passwd')).toThrow(UnsafePathError);
    expect(() => resolveRelativeUnderRoot('/r', 'a/../../etc')).toThrow(UnsafePathError);
    expect(() => resolveRelativeUnderRoot('C:\\r', 'D:\\x', 'win32')).toThrow(UnsafePathError);
    expect(() => resolveRelativeUnderRoot('C:\\r', '\\\\server\\share', 'win32')).toThrow(
      UnsafePathError,
    );
  });
});

describe('isInsideRoot', () => {
  it('tells inside from outside, including look-alike prefixes', () => {
    expect(isInsideRoot('/sync', '/sync')).toBe(true);
    expect(isInsideRoot('/sync', '/sync/a/b')).toBe(true);
    expect(isInsideRoot('/sync', '/sync-other/a')).toBe(false);
    expect(isInsideRoot('/sync', '/sync/../etc')).toBe(false);
    expect(isInsideRoot('C:\\Sync', 'c:\\sync\\a', 'win32')).toBe(true);
    expect(isInsideRoot('C:\\Sync', 'C:\\Sync2\\a', 'win32')).toBe(false);
  });
});
