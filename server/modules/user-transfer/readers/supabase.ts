import type { ProviderReader } from './provider-reader.js';
import { compact, csvRecords, isoTime, jsonObject, splitName, text } from './sources.js';

/**
 * Supabase's `auth.users` table as CSV (the Table Editor's export, or
 * `\copy auth.users to 'users.csv' csv header` in psql): id → external_id; encrypted_password (bcrypt,
 * `$2a$10$…`; empty for a user who signs in otherwise) → password; email_confirmed_at set → verified;
 * created_at (PostgreSQL's timestamp text) → created_at; raw_user_meta_data's first_name/last_name (or
 * full_name/name split) → names, and raw_user_meta_data and raw_app_meta_data (the providers) → private_metadata.supabase.
 */
export const readSupabase: ProviderReader = async function* (input) {
  for await (const { line, record } of csvRecords(input)) {
    const userMeta = jsonObject(record!.raw_user_meta_data);
    const appMeta = jsonObject(record!.raw_app_meta_data);
    const names = text(userMeta?.first_name) || text(userMeta?.last_name) ? { first_name: text(userMeta?.first_name), last_name: text(userMeta?.last_name) } : splitName(userMeta?.full_name ?? userMeta?.name);
    const supabase = compact({ user_metadata: userMeta, app_metadata: appMeta });
    yield {
      line,
      value: compact({
        email: text(record!.email),
        email_verified: text(record!.email_confirmed_at) !== undefined,
        ...names,
        external_id: text(record!.id),
        created_at: isoTime(record!.created_at),
        private_metadata: Object.keys(supabase).length ? { supabase } : undefined,
        password: text(record!.encrypted_password) ?? null,
      }),
    };
  }
};
