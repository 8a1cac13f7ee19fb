import { safeStorage } from 'electron';

/**
 * Electron's safeStorage as the keychain's fallback cipher. On Linux without a secret store it
 * still "works" with its `basic_text` backend, a password written in Chromium's source: that is
 * plain text in disguise, so it counts as unavailable there.
 */
export const appCipher = {
  isEncryptionAvailable(): boolean {
    if (!safeStorage.isEncryptionAvailable()) return false;
    if (process.platform !== 'linux') return true;
    const backend = safeStorage.getSelectedStorageBackend();
    return backend !== 'basic_text' && backend !== 'unknown';
  },
  encryptString: (plain: string): Buffer => safeStorage.encryptString(plain),
  decryptString: (data: Buffer): string => safeStorage.decryptString(data),
};
