import type { StorageLike } from './environment.js';

/** What survives a reload: the refresh token (none in cookie mode) and the ID token (the user, the logout hint). */
export interface StoredSession {
  refreshToken?: string;
  idToken?: string;
}

/**
 * Where the refresh token lives between page loads.
 * - `memory`: nowhere; a reload asks the other tabs, and without any the user signs in again.
 * - `sessionStorage`: this tab's reloads; a new tab gets the session from the open ones.
 * - `localStorage`: survives closing the browser, and is readable for longer by script injected into the page.
 * - `{ cookieEndpoint }`: an HttpOnly cookie of the app's backend; the page never holds it.
 */
export type RefreshTokenStorage = 'memory' | 'sessionStorage' | 'localStorage' | { cookieEndpoint: string };

export interface SessionStore {
  load(): StoredSession | null;
  save(session: StoredSession): void;
  clear(): void;
}

export function sessionStore(kind: RefreshTokenStorage, storage: { sessionStorage: StorageLike | null; localStorage: StorageLike | null }, key: string): SessionStore {
  const target = kind === 'sessionStorage' ? storage.sessionStorage : kind === 'localStorage' ? storage.localStorage : null;
  if (!target) return { load: () => null, save: () => undefined, clear: () => undefined };
  return {
    load() {
      try {
        const parsed: unknown = JSON.parse(target.getItem(key) ?? 'null');
        return parsed && typeof parsed === 'object' ? (parsed as StoredSession) : null;
      } catch {
        return null;
      }
    },
    save(session) {
      try {
        target.setItem(key, JSON.stringify(session));
      } catch {
        // Storage full or refused: the session still works in memory.
      }
    },
    clear() {
      try {
        target.removeItem(key);
      } catch {
        /* nothing stored */
      }
    },
  };
}
