import { describe, expect, it } from 'vitest';
import { collectSignals, getDeviceFingerprint, sha256Hex } from '../../client/lib/fingerprint';
import { errorMessage } from '../../client/lib/errors';
import { colorThemeManager } from '../../client/theme';
import { trpcError } from './utils';

describe('device fingerprint', () => {
  it('is a stable SHA-256 hex digest of the browser signals', async () => {
    const first = await getDeviceFingerprint();
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await sha256Hex(collectSignals().join('||'))).toBe(first);
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('colour theme storage', () => {
  it("stores light, dark and system under 'color-theme' (Mantine's auto is system)", () => {
    const manager = colorThemeManager();
    expect(manager.get('auto')).toBe('auto');
    manager.set('dark');
    expect(localStorage.getItem('color-theme')).toBe('dark');
    manager.set('auto');
    expect(localStorage.getItem('color-theme')).toBe('system');
    expect(manager.get('light')).toBe('auto');
    localStorage.setItem('color-theme', 'purple');
    expect(manager.get('light')).toBe('light');
  });
});

describe('errorMessage', () => {
  it("shows the server's detail, else the fallback", () => {
    expect(errorMessage(trpcError('CONFLICT', 'Email already registered'), 'Signup failed')).toBe('Email already registered');
    expect(errorMessage(new Error('Failed to fetch'), 'Signup failed')).toBe('Signup failed');
    expect(errorMessage(trpcError('INTERNAL_SERVER_ERROR', 'Internal Server Error'), 'Signup failed')).toBe('Signup failed');
    expect(errorMessage(trpcError('BAD_REQUEST', '[{"code":"too_small"}]'), 'Signup failed')).toBe('Signup failed');
  });
});
