import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './openapi.js';

/** The end-user API (`/public/api/v1`) out of the server's whole document: what a developer's backend calls. */
export type PublicApiPaths = {
  [Path in keyof paths as Path extends `/public/api/v1/${string}` ? Path : never]: paths[Path];
};

export type PublicApiClient = Client<PublicApiPaths>;

export interface PublicApiClientOptions {
  /** Where the platform is served (its APP_URL), e.g. `https://auth.example.com`. */
  appUrl: string;
  /** The project's secret API key (`sk_live_…` or `sk_test_…`), sent as X-API-Key. Keep it on the server. */
  apiKey: string;
  /** A fetch to use instead of the global one. */
  fetch?: ClientOptions['fetch'];
}

/** A platform address without trailing slashes, as the server writes it into its tokens' issuer. */
export function normalizeAppUrl(appUrl: string): string {
  return appUrl.replace(/\/+$/, '');
}

/**
 * A typed client for `/public/api/v1`: `client.POST('/public/api/v1/auth/login', { body })` answers
 * `{ data }` on success or `{ error }` with the server's `{ detail }` and the status in `response`.
 */
export function createPublicApiClient(options: PublicApiClientOptions): PublicApiClient {
  return createClient<PublicApiPaths>({
    baseUrl: normalizeAppUrl(options.appUrl),
    headers: { 'X-API-Key': options.apiKey },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
