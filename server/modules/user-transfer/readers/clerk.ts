import type { ProviderReader } from './provider-reader.js';
import { compact, csvRecords, text } from './sources.js';

/**
 * Clerk's user export CSV (Dashboard → Settings → User exports, https://clerk.com/docs/guides/development/migrating/export-from-clerk):
 * `id,first_name,last_name,username,primary_email_address,primary_phone_number,verified_email_addresses,
 * unverified_email_addresses,verified_phone_numbers,unverified_phone_numbers,totp_secret,password_digest,password_hasher`.
 *
 * id → external_id; primary_email_address → email, verified when it is among verified_email_addresses;
 * totp_secret → totp_secret (the user keeps their authenticator app); password_digest by
 * password_hasher: bcrypt, argon2i/argon2id (PHC), pbkdf2_sha256 (PHC) and the Django forms
 * (`pbkdf2_sha256$…`) are string forms the import reads, given as they are; a digest of another hasher
 * is given as it is too, and the import reports its line. username and the phone numbers →
 * private_metadata.clerk. The file has no creation time.
 */
export const readClerk: ProviderReader = async function* (input) {
  for await (const { line, record } of csvRecords(input)) {
    const email = text(record!.primary_email_address)?.toLowerCase();
    const verified = addresses(record!.verified_email_addresses).includes(email ?? '');
    const clerk = compact({ username: text(record!.username), phone_number: text(record!.primary_phone_number) });
    const digest = text(record!.password_digest);
    yield {
      line,
      value: compact({
        email,
        email_verified: verified,
        first_name: text(record!.first_name),
        last_name: text(record!.last_name),
        external_id: text(record!.id),
        private_metadata: Object.keys(clerk).length ? { clerk } : undefined,
        password: digest ?? null,
        totp_secret: text(record!.totp_secret),
      }),
    };
  }
};

/** A cell listing addresses: separated by `|`, `,`, `;` or spaces (Clerk's files have used more than one). */
function addresses(cell: string | undefined): string[] {
  return (cell ?? '')
    .split(/[|,;\s]+/)
    .map((address) => address.trim().toLowerCase())
    .filter(Boolean);
}
