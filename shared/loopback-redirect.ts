/**
 * Development redirect patterns: `http://localhost:*` or `http://127.0.0.1:*` followed by a path
 * (`http://localhost:*\/callback`) stands for that path on any port of this machine's loopback, as
 * local dev servers pick their port (RFC 8252 §7.3 asks the same of native apps). Only the port is a
 * wildcard: scheme, host, path and query are compared exactly. A project registers one only while
 * its environment is development, and it matches only while it still is.
 */
const PATTERN = /^http:\/\/(localhost|127\.0\.0\.1):\*(\/[^#\s]*)?$/;

export function isLoopbackRedirectPattern(value: string): boolean {
  const match = PATTERN.exec(value);
  if (!match) return false;
  // The rest must be what a URL on that host serialises to, so the comparison below is exact.
  try {
    const rest = match[2] ?? '/';
    const url = new URL(`http://${match[1]}:1${rest}`);
    return `${url.pathname}${url.search}` === rest;
  } catch {
    return false;
  }
}

/** Whether `candidate` is `pattern` with a port (1 to 65535) where the pattern has `*`. */
export function matchesLoopbackRedirectPattern(pattern: string, candidate: string): boolean {
  const match = PATTERN.exec(pattern);
  if (!match || !isLoopbackRedirectPattern(pattern)) return false;
  const prefix = `http://${match[1]}:`;
  const rest = match[2] ?? '/';
  if (!candidate.startsWith(prefix)) return false;
  const port = /^\d{1,5}/.exec(candidate.slice(prefix.length))?.[0];
  if (!port || port.startsWith('0') || Number(port) > 65535) return false;
  return candidate.slice(prefix.length + port.length) === rest;
}
