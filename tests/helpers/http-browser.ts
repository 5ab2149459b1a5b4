import { expect } from 'vitest';
import { uniqueIp } from './create-test-app.js';

/**
 * A browser against a listening server (real HTTP, for what app.inject cannot do: a client library's fetch, a
 * redirect to follow by hand): it keeps the cookies the server sets, follows nothing by itself and comes from one
 * address. tests/helpers/hosted-browser.ts is the same over app.inject.
 */
export class HttpBrowser {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly appUrl: string,
    readonly ip = uniqueIp(),
  ) {}

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    headers.set('x-forwarded-for', this.ip);
    headers.set('user-agent', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36');
    const response = await fetch(new URL(url, this.appUrl), { ...init, headers, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair, ...attributes] = cookie.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      const expired = attributes.some((attribute) => /max-age=0|expires=thu, 01 jan 1970/i.test(attribute.trim()));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  post(url: string, body: unknown) {
    return this.fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  /** Follows one redirect (a 303) and answers where it pointed. */
  async location(url: string): Promise<string> {
    const response = await this.fetch(url);
    expect(response.status, await response.clone().text()).toBe(303);
    return response.headers.get('location')!;
  }
}
