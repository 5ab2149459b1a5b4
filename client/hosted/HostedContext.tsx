import { createContext, useContext } from 'react';
import type { Locale } from '../../shared/i18n/locales';
import type { HostedProject } from '../../shared/schemas/hosted';
import type { HostedApi } from './api';
import type { HostedPaths } from './paths';

export interface Hosted {
  project: HostedProject;
  api: HostedApi;
  paths: HostedPaths;
  /** The language the pages are in (i18n/locale.ts). */
  locale: Locale;
  /** The user picked a language: it wins for the rest of the tab's session. */
  pickLocale(locale: string): void;
  /** The signed-in user's saved language (null: none), under an explicit choice. */
  adoptSavedLocale(locale: string | null): void;
}

export const HostedContext = createContext<Hosted | null>(null);

/** The project whose hosted pages are open, its API client and its page addresses. */
export function useHosted(): Hosted {
  const value = useContext(HostedContext);
  if (!value) throw new Error('useHosted must be used inside <HostedApp>');
  return value;
}

/** Query keys of the signed-in end user's data: dropped whenever the session changes. */
export const SESSION_KEY = ['session'] as const;
export const PROFILE_KEY = [...SESSION_KEY, 'profile'] as const;
export const SESSIONS_KEY = [...SESSION_KEY, 'sessions'] as const;
export const PASSKEYS_KEY = [...SESSION_KEY, 'passkeys'] as const;
export const IDENTITIES_KEY = [...SESSION_KEY, 'identities'] as const;
export const ORGANIZATIONS_KEY = [...SESSION_KEY, 'organizations'] as const;
