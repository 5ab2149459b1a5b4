import { createTRPCClient, httpLink, TRPCClientError, type TRPCClient } from '@trpc/client';
import type { FastifyInstance } from 'fastify';
import type { AppRouter } from '../../server/trpc/router.js';

export interface TrpcTabOptions {
  /** Sent as `Authorization: Bearer …` on every call. */
  token?: string;
  /** Cookies the tab starts with (it then keeps what the server sets, as a browser does). */
  cookies?: Record<string, string>;
  /** The client address (default 203.0.113.10). */
  ip?: string;
  headers?: Record<string, string>;
}

/** A browser tab's view of the tRPC API: a typed client over app.inject that keeps the cookies the server sets. */
export interface TrpcTab {
  api: TRPCClient<AppRouter>;
  cookies: Record<string, string>;
  /** The Set-Cookie headers of the last answer, as sent (to check their attributes). */
  setCookies: string[];
}

export function createTrpcTab(app: FastifyInstance, options: TrpcTabOptions = {}): TrpcTab {
  const tab: TrpcTab = { api: undefined as never, cookies: { ...options.cookies }, setCookies: [] };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const headers: Record<string, string> = { ...Object.fromEntries(new Headers(init?.headers)), ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const res = await app.inject({
      method: (init?.method ?? 'GET') as 'GET' | 'POST',
      url: url.pathname + url.search,
      headers,
      cookies: tab.cookies,
      payload: typeof init?.body === 'string' ? init.body : undefined,
      remoteAddress: options.ip ?? '203.0.113.10',
    });
    for (const cookie of res.cookies) {
      const cleared = cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (cleared) delete tab.cookies[cookie.name];
      else tab.cookies[cookie.name] = cookie.value;
    }
    const setCookie = res.headers['set-cookie'];
    tab.setCookies = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) answerHeaders.append(name, String(one));
    }
    return new Response(res.body, { status: res.statusCode, headers: answerHeaders });
  };
  tab.api = createTRPCClient<AppRouter>({ links: [httpLink({ url: 'http://app.test/trpc', fetch })] });
  return tab;
}

/** What a failed tRPC call answered: HTTP status, tRPC code and message. */
export async function trpcFailure(call: Promise<unknown>): Promise<{ status: number | undefined; code: string | undefined; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof TRPCClientError) {
      const data = error.data as { httpStatus?: number; code?: string } | undefined;
      return { status: data?.httpStatus, code: data?.code, message: error.message };
    }
    throw error;
  }
  throw new Error('expected the call to fail');
}
