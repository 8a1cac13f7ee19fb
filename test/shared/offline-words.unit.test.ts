import { describe, expect, it } from 'vitest';
import { LANGUAGES, translator } from '../../src/shared/i18n';

// Issue 39, item 4: offline was worded three ways ("Offline — will retry" on a pair's card,
// "Offline: will sync when the service is back" in the tray, "Offline — showing your synced
// files" in Browse). One wording everywhere, in each language: the card's state leads each.

describe('offline is said one way', () => {
  it.each(LANGUAGES)('%s: the card, Browse, the tray and the engine line say it alike', (lang) => {
    const tr = translator(lang);
    const offline = tr.t('status.state.offline');
    expect(tr.t('files.offline')).toBe(offline);
    expect(tr.t('tray.offline')).toBe(offline);
    // The engine's line (the card's message, the CLI's status, the tray's pair line) adds when.
    expect(tr.t('engine.retryOffline', { seconds: 8 }).startsWith(`${offline}; `)).toBe(true);
    // Browse's way back is the card's and the tray's Retry now.
    expect(tr.t('files.goOnline')).toBe(tr.t('status.retryNow'));
    expect(tr.t('tray.retryNow')).toBe(tr.t('status.retryNow'));
  });
});
