/**
 * A stable device fingerprint: the SHA-256 (hex) of browser signals that do not change between visits.
 * Sent as `device_fingerprint` with login and signup. Never throws; the worst case is a weaker hash.
 */

function canvasSignal(): string {
  try {
    const canvas = document.createElement('canvas');
    canvas.width = 220;
    canvas.height = 40;
    const ctx = canvas.getContext('2d');
    if (!ctx) return 'no-canvas';
    ctx.textBaseline = 'top';
    ctx.font = "14px 'Arial'";
    ctx.fillStyle = '#f60';
    ctx.fillRect(100, 1, 62, 20);
    ctx.fillStyle = '#069';
    ctx.fillText('AuthPlatform fp \u{1F512}', 2, 15);
    ctx.fillStyle = 'rgba(102, 204, 0, 0.7)';
    ctx.fillText('AuthPlatform fp \u{1F512}', 4, 17);
    return canvas.toDataURL();
  } catch {
    return 'no-canvas';
  }
}

function timezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';
  } catch {
    return '';
  }
}

export function collectSignals(): string[] {
  const nav = typeof navigator === 'undefined' ? undefined : navigator;
  const scr = typeof screen === 'undefined' ? undefined : screen;
  return [
    nav?.userAgent ?? '',
    nav?.language ?? '',
    (nav?.languages ?? []).join(','),
    nav?.platform ?? '',
    String(nav?.hardwareConcurrency ?? ''),
    scr ? `${scr.width}x${scr.height}x${scr.colorDepth}` : '',
    timezone(),
    String(new Date().getTimezoneOffset()),
    canvasSignal(),
  ];
}

function toHex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** FNV-1a based fallback for browsers without crypto.subtle (plain-HTTP origins other than localhost). */
function fallbackHash(text: string): string {
  let out = '';
  for (let seed = 0; seed < 8; seed += 1) {
    let h = 0x811c9dc5 ^ seed;
    for (let i = 0; i < text.length; i += 1) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    out += (h >>> 0).toString(16).padStart(8, '0');
  }
  return out;
}

export async function sha256Hex(text: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return fallbackHash(text);
  try {
    return toHex(await subtle.digest('SHA-256', new TextEncoder().encode(text)));
  } catch {
    return fallbackHash(text);
  }
}

let cached: Promise<string> | null = null;

/** The fingerprint of this browser (computed once per page load). */
export function getDeviceFingerprint(): Promise<string> {
  cached ??= sha256Hex(collectSignals().join('||'));
  return cached;
}
