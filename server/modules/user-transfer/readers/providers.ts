import { IMPORT_FORMATS, type ImportFormat } from '../../../../shared/schemas/user-import.js';
import { readAuth0 } from './auth0.js';
import { readClerk } from './clerk.js';
import { readCognito } from './cognito.js';
import { readFirebase } from './firebase.js';
import type { ProviderReader } from './provider-reader.js';
import { readSupabase } from './supabase.js';

/** `?format=` of an import: which provider's export file the body is. */
export type ProviderFormat = Exclude<ImportFormat, 'native'>;
export const PROVIDER_FORMATS = IMPORT_FORMATS.filter((format): format is ProviderFormat => format !== 'native');

export const PROVIDER_READERS: Record<ProviderFormat, ProviderReader> = {
  auth0: readAuth0,
  firebase: readFirebase,
  supabase: readSupabase,
  clerk: readClerk,
  cognito: readCognito,
};

export type { ProviderReader, ProviderReaderOptions, ProviderRecord } from './provider-reader.js';
