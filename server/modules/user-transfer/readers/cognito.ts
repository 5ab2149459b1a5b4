import type { ProviderReader } from './provider-reader.js';
import { compact, csvRecords, splitName, text, truthy } from './sources.js';

/**
 * Amazon Cognito user pools as CSV: the user import job's header (`cognito:username,name,given_name,
 * family_name,…,email,email_verified,…,phone_number,phone_number_verified,…,cognito:mfa_enabled`, from
 * GetCSVHeader) that export tools write from ListUsers, with `sub` when the tool adds it. Cognito never
 * gives out password hashes: these users set a password (or sign in by e-mail) after the move.
 *
 * sub (else cognito:username) → external_id; email, email_verified; given_name/family_name (else name
 * split) → names; custom:* attributes and cognito:username → private_metadata.cognito.
 */
export const readCognito: ProviderReader = async function* (input) {
  for await (const { line, record } of csvRecords(input)) {
    const custom = Object.fromEntries(Object.entries(record!).filter(([key, value]) => key.startsWith('custom:') && text(value) !== undefined).map(([key, value]) => [key.slice('custom:'.length), value]));
    const cognito = compact({ username: text(record!['cognito:username']), custom: Object.keys(custom).length ? custom : undefined });
    const named = text(record!.given_name) || text(record!.family_name) ? { first_name: text(record!.given_name), last_name: text(record!.family_name) } : splitName(record!.name);
    yield {
      line,
      value: compact({
        email: text(record!.email),
        email_verified: truthy(record!.email_verified),
        ...named,
        external_id: text(record!.sub) ?? text(record!['cognito:username']),
        private_metadata: Object.keys(cognito).length ? { cognito } : undefined,
        password: null,
      }),
    };
  }
};
