// A sign-in's failures in the window's words: the service's own reason for a refusal, and the
// account store's refusal said with the window's choices rather than the CLI's options.
import type { Words } from '../../shared/i18n';

/**
 * The service's own reason for refusing a sign-in (its text, ended with a full stop): "The
 * service did not accept the sign-in (Wrong email or password.)." → "Wrong email or password.".
 */
export function reasonOf(err: Error): string | Words {
  const reason = /\((.*)\)\.?$/.exec(err.message)?.[1];
  return reason ? reason.replace(/\.?$/, '.') : { key: 'backend.signInRefusedNoReason' };
}

/**
 * The store's refusal in the window's words: no keychain names the window's choices, not the
 * CLI's options (`--token`); any other refusal is said as it is.
 */
export function windowWords(words: Words | null): Words {
  if (words?.key !== 'account.noKeychain')
    return words ?? { key: 'backend.noKeychain', params: { problem: 'unknown' } };
  const problem = words.params?.problem;
  return {
    key: 'backend.noKeychain',
    params: { problem: typeof problem === 'string' ? problem : 'unknown' },
  };
}
