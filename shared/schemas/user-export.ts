import { z } from 'zod';

/** The secrets an owner may add to a users export (after a step-up, encrypted with their passphrase). */
export const EXPORT_SECRETS = ['password_hashes', 'totp_secrets'] as const;
export type ExportSecret = (typeof EXPORT_SECRETS)[number];

export const EXPORT_PASSPHRASE_MIN = 12;

/** POST /api/v1/projects/{id}/users/export: the encrypted export, with the secrets asked for. */
export const EncryptedUserExportInputSchema = z.object({
  include: z
    .array(z.enum(EXPORT_SECRETS, { error: `include must list ${EXPORT_SECRETS.join(', ')}` }))
    .max(EXPORT_SECRETS.length)
    .default([]),
  passphrase: z
    .string({ error: 'passphrase is required' })
    .min(EXPORT_PASSPHRASE_MIN, { error: `passphrase must be at least ${EXPORT_PASSPHRASE_MIN} characters` })
    .max(1024, { error: 'passphrase must be at most 1024 characters' }),
});
export type EncryptedUserExportInput = z.output<typeof EncryptedUserExportInputSchema>;

/** GET /api/v1/projects/{id}/users/export: NDJSON lines (the import's format), or the monitoring list's CSV. */
export const UserExportFormatSchema = z.enum(['ndjson', 'csv'], { error: 'format must be ndjson or csv' }).default('ndjson');
