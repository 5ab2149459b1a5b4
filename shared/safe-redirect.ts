/**
 * The one rule for every place we send a browser to an address someone else wrote (`return_to`, a
 * guard's remembered location): the server before answering a redirect, the client before navigating.
 *
 * The target is read as a browser reads it, against our own origin, and is refused when the result is
 * on another origin. Before that, anything a URL parser silently drops or reinterprets is refused, in
 * the raw text and in every percent-decoding of it: control characters (a tab makes `/<TAB>/evil.example`
 * the protocol-relative `//evil.example`), whitespace (leading spaces are trimmed the same way) and
 * backslashes (read as `/` in http URLs). What is answered is only the path, query and fragment, never
 * a scheme or host, and it is checked once more to resolve to our origin.
 */

/** C0 and C1 controls, DEL, every Unicode whitespace (BOM included) and the backslash. */
const REFUSED = /[\u0000-\u001f\u007f-\u009f\s\\]/u;
/** Nested encodings deeper than this (`%252509`…) are refused rather than unwrapped forever. */
const MAX_DECODINGS = 4;

/**
 * A same-origin path (pathname + search + hash) for `target` resolved against `origin`, whose pathname
 * starts with `within` (e.g. one project's hosted pages), or null: fall back to the default page.
 */
export function safeRedirectPath(target: unknown, origin: string, within = '/'): string | null {
  if (typeof target !== 'string' || target === '' || hasRefusedCharacter(target)) return null;
  let base: URL;
  let url: URL;
  try {
    base = new URL(origin);
    url = new URL(target, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || !url.pathname.startsWith(within)) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `/.//evil.example` normalizes to the pathname `//evil.example`, which on its own names another host.
  if (path.startsWith('//') || new URL(path, base).origin !== base.origin) return null;
  return path;
}

function hasRefusedCharacter(value: string): boolean {
  let current = value;
  for (let round = 0; round <= MAX_DECODINGS; round += 1) {
    if (REFUSED.test(current)) return true;
    const next = percentDecoded(current);
    if (next === current) return false;
    current = next;
  }
  return true;
}

/** One percent-decoding; a run that is not valid UTF-8 still has its ASCII bytes decoded (`%C3%09`). */
function percentDecoded(value: string): string {
  return value.replace(/(?:%[0-9a-f]{2})+/giu, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%[0-7][0-9a-f]/giu, (byte) => String.fromCharCode(Number.parseInt(byte.slice(1), 16)));
    }
  });
}
