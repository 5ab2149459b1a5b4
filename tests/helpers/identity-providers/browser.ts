interface StoredCookie {
  name: string;
  value: string;
  host: string;
  path: string;
  expiresAt: number | null;
}

/**
 * A minimal browser cookie jar for fetch: keeps cookies per host (not port, like browsers), honours Path,
 * Max-Age and Expires (deletion included). Enough for redirect dances through loopback servers.
 */
export class CookieJar {
  private cookies: StoredCookie[] = [];

  /** Stores the Set-Cookie headers of a response received from `url`. */
  store(url: string | URL, response: Response): void {
    const { hostname, pathname } = new URL(url);
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const cookie: StoredCookie = {
        name: pair.slice(0, eq).trim(),
        value: pair.slice(eq + 1).trim(),
        host: hostname,
        path: pathname.slice(0, pathname.lastIndexOf('/')) || '/',
        expiresAt: null,
      };
      for (const attribute of attributes) {
        const [key = '', value = ''] = attribute.split('=').map((part) => part.trim());
        const lower = key.toLowerCase();
        if (lower === 'path' && value.startsWith('/')) cookie.path = value;
        else if (lower === 'max-age') cookie.expiresAt = Date.now() + Number(value) * 1000;
        else if (lower === 'expires' && cookie.expiresAt === null) cookie.expiresAt = Date.parse(value);
      }
      this.cookies = this.cookies.filter((c) => !(c.name === cookie.name && c.host === cookie.host && c.path === cookie.path));
      if (cookie.expiresAt === null || cookie.expiresAt > Date.now()) this.cookies.push(cookie);
    }
  }

  /** The Cookie header a browser would send to `url`, or undefined when there is nothing to send. */
  header(url: string | URL): string | undefined {
    const { hostname, pathname } = new URL(url);
    const now = Date.now();
    const matching = this.cookies
      .filter((c) => c.host === hostname && (c.expiresAt === null || c.expiresAt > now))
      .filter((c) => pathname === c.path || pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .sort((a, b) => b.path.length - a.path.length);
    return matching.length ? matching.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
  }

  /** Value of a cookie named `name` that would be sent to `url`. */
  get(url: string | URL, name: string): string | undefined {
    return this.header(url)
      ?.split('; ')
      .find((pair) => pair.startsWith(`${name}=`))
      ?.slice(name.length + 1);
  }
}

/**
 * Follows redirects from `startUrl` like a browser would (GET, carrying cookies in `jar`) until a Location
 * starts with `redirectUriPrefix`, and returns that URL without requesting it — typically the relying party's
 * callback with `code`/`state` or `error`. Throws on any non-redirect answer along the way.
 */
export async function followToRedirect(
  startUrl: string | URL,
  redirectUriPrefix: string,
  options: { jar?: CookieJar; maxHops?: number } = {},
): Promise<string> {
  const jar = options.jar ?? new CookieJar();
  let url = new URL(startUrl);
  for (let hop = 0; hop < (options.maxHops ?? 20); hop += 1) {
    const cookie = jar.header(url);
    const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    jar.store(url, response);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      const body = await response.text();
      throw new Error(`expected a redirect from ${url.href}, got ${response.status}: ${body.slice(0, 500)}`);
    }
    await response.body?.cancel();
    const next = new URL(location, url);
    if (next.href.startsWith(redirectUriPrefix)) return next.href;
    url = next;
  }
  throw new Error(`no redirect to ${redirectUriPrefix} within ${options.maxHops ?? 20} hops from ${String(startUrl)}`);
}
