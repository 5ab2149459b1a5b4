import type { Readable } from 'node:stream';

/**
 * One record of a provider's export file, as a UserTransferLine-shaped object for the import to
 * validate (UserTransferLineSchema), or the reason the record could not be read at all (`error`; the
 * value is then undefined). `line` is where the record is: its line in an NDJSON or CSV file, its
 * position (1, 2, …) in a JSON array.
 */
export interface ProviderRecord {
  line: number;
  value: unknown;
  error?: string;
}

export interface ProviderReaderOptions {
  /** Auth0: the password-hash export (NDJSON from Auth0 support), joined to the user export by user id. */
  passwordHashes?: Readable;
}

/** Reads a provider's export as it streams in: one record in memory at a time (but see auth0.ts's join). */
export type ProviderReader = (input: Readable, options?: ProviderReaderOptions) => AsyncIterable<ProviderRecord>;
