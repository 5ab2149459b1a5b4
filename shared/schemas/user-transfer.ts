import { z } from 'zod';
import { EmailSchema, OptionalNameSchema } from './common.js';
import { metadataSchema, RoleKeySchema, SlugSchema } from './organizations.js';

/**
 * One user of an import or an export: a line of NDJSON (or an element of a JSON array). The export writes exactly what
 * the import reads, so export → import into another project round-trips every sign-in.
 */

/**
 * A password hash as a string: bcrypt (`$2a$`, `$2b$`, `$2y$`), a PHC string (`$argon2id$…`, `$argon2i$…`,
 * `$scrypt$ln=…,r=…,p=…$salt$hash`, `$pbkdf2-sha256$i=…$salt$hash`, `$pbkdf2-sha1$…`) or Django's
 * `pbkdf2_sha256$iterations$salt$hash` / `pbkdf2_sha1$…`. Which of these verify is server/modules/passwords/password-hashes.
 */
export const PasswordHashStringSchema = z.string({ error: 'password must be a hash string or object' }).min(1).max(1024);

const HashEncodingSchema = z.enum(['base64', 'hex']).default('base64');

/** The documented object forms, for hashes without a standard string form. */
export const PasswordHashObjectSchema = z.discriminatedUnion(
  'algorithm',
  [
    /** Firebase's modified scrypt: the project's signer key, salt separator, rounds and memory cost come once per import. */
    z.object({ algorithm: z.literal('firebase_scrypt'), hash: z.string().min(1).max(512), salt: z.string().min(1).max(512) }),
    /** An old system's salted digest: digest(salt + password) or digest(password + salt). */
    z.object({
      algorithm: z.enum(['sha256', 'sha512']),
      hash: z.string().min(1).max(512),
      salt: z.string().max(512).default(''),
      salt_position: z.enum(['prefix', 'suffix']).default('prefix'),
      encoding: HashEncodingSchema,
    }),
    /** PBKDF2 given by parts (hash and salt in `encoding`). */
    z.object({
      algorithm: z.enum(['pbkdf2_sha256', 'pbkdf2_sha1']),
      hash: z.string().min(1).max(512),
      salt: z.string().min(1).max(512),
      iterations: z.number().int().min(1).max(10_000_000),
      encoding: HashEncodingSchema,
    }),
  ],
  { error: 'password.algorithm must be one of firebase_scrypt, sha256, sha512, pbkdf2_sha256, pbkdf2_sha1' },
);

export const ImportedPasswordSchema = z.union([PasswordHashStringSchema, PasswordHashObjectSchema]);
export type ImportedPassword = z.infer<typeof ImportedPasswordSchema>;

/** Firebase's hash parameters (`firebase auth:export` and the console's "Password hash parameters"). */
export const FirebaseScryptParamsSchema = z.object({
  signer_key: z.string().min(1).max(512),
  salt_separator: z.string().max(512).default('Bw=='),
  rounds: z.number().int().min(1).max(64),
  mem_cost: z.number().int().min(1).max(32),
});
export type FirebaseScryptParams = z.infer<typeof FirebaseScryptParamsSchema>;

export const TransferredPasskeySchema = z.object({
  credential_id: z.string().min(1).max(1024),
  public_key: z.string().min(1).max(4096),
  counter: z.number().int().min(0).default(0),
  transports: z.array(z.string().max(32)).max(10).default([]),
  name: z.string().max(100).nullish(),
  created_at: z.iso.datetime({ offset: true }).optional(),
});

export const UserTransferLineSchema = z.object({
  /** The user's id in the project it was exported from; informational, an import gives new ids. */
  id: z.string().max(255).optional(),
  email: EmailSchema,
  email_verified: z.boolean().default(false),
  first_name: OptionalNameSchema,
  last_name: OptionalNameSchema,
  /** The id of the user in the developer's own system, unique in the project. */
  external_id: z.string().trim().min(1).max(255).nullish(),
  created_at: z.iso.datetime({ offset: true }).optional(),
  public_metadata: metadataSchema('public_metadata').optional(),
  private_metadata: metadataSchema('private_metadata').optional(),
  password: ImportedPasswordSchema.nullish(),
  /** The TOTP secret in base32: the user keeps signing in with the codes of the authenticator app they have. */
  totp_secret: z
    .string()
    .trim()
    .regex(/^[A-Z2-7]{16,128}=*$/i, { error: 'totp_secret must be base32' })
    .nullish(),
  organizations: z
    .array(z.object({ slug: SlugSchema, role: RoleKeySchema.optional() }))
    .max(100)
    .optional(),
  passkeys: z.array(TransferredPasskeySchema).max(20).optional(),
});
export type UserTransferLine = z.infer<typeof UserTransferLineSchema>;
