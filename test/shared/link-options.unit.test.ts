import { describe, expect, it } from 'vitest';
import { linkOptionsOf, linkOptionsQuery } from '../../src/shared/link-options';

// The page's target in its address (a file manager's "Copy link with options…"): there and
// back whatever the name holds, never an encoded slash the bridge would refuse, and nothing
// taken from an address that does not hold one.

describe('the link options page’s address', () => {
  it('carries any name there and back, with no %2F', () => {
    const target = {
      accountId: 'https://files.example.org/api|ann@example.com',
      workspaceId: 4,
      kind: 'file' as const,
      itemId: 42,
      name: 'Ünïcödé / “report” 100%?&#.pdf',
    };
    const query = linkOptionsQuery(target);
    expect(query).not.toMatch(/%2f|%5c/i);
    expect(query).toMatch(/^\?linkOptions=[A-Za-z0-9_-]+$/);
    expect(linkOptionsOf(query)).toEqual(target);
  });

  it('takes nothing from an address without a valid target', () => {
    expect(linkOptionsOf('')).toBeNull();
    expect(linkOptionsOf('?linkOptions=not-base64-json')).toBeNull();
    expect(linkOptionsOf(`?linkOptions=${btoa('{"accountId":""}')}`)).toBeNull();
  });
});
