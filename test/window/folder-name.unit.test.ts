import { describe, expect, it } from 'vitest';
import { safeFolderName } from '../../src/renderer/views/folder-name';

// The default folder of a new pair is ~/Workspace Sync/<workspace name>: the name must be one
// folder name on every OS.
describe('safeFolderName', () => {
  it('keeps an ordinary name', () => {
    expect(safeFolderName('Q3 Planning')).toBe('Q3 Planning');
    expect(safeFolderName('Café – Ünïcode')).toBe('Café – Ünïcode');
  });

  it('replaces separators and the characters Windows refuses', () => {
    expect(safeFolderName('Board: 2027/Q1')).toBe('Board- 2027-Q1');
    expect(safeFolderName('a\\b*c?d"e<f>g|h')).toBe('a-b-c-d-e-f-g-h');
    expect(safeFolderName('tab\there')).toBe('tab-here');
  });

  it('drops trailing dots and spaces, avoids device names, never answers empty, . or ..', () => {
    expect(safeFolderName('Notes. . ')).toBe('Notes');
    expect(safeFolderName('CON')).toBe('CON_');
    expect(safeFolderName('nul.txt')).toBe('nul.txt_');
    expect(safeFolderName('   ')).toBe('Workspace');
    expect(safeFolderName('..')).toBe('Workspace');
    expect(safeFolderName('x'.repeat(300))).toHaveLength(100);
  });
});
