import { z } from 'zod';

/** How many machine clients one project may have, and how many scopes one client may hold. */
export const MAX_MACHINE_CLIENTS_PER_PROJECT = 50;
export const MAX_MACHINE_CLIENT_SCOPES = 50;

/** The end users' scopes of OpenID Connect: a machine client has no user, so it can hold none of them. */
const USER_SCOPES = ['openid', 'email', 'profile', 'offline_access', 'organizations'];

/** One scope a machine client may be granted: `invoices:read`, `api.write`, `reports/export`… (RFC 6749 §3.3's characters, narrowed). */
export const MachineScopeSchema = z
  .string({ error: 'scopes must be text' })
  .max(64, { error: 'a scope must be at most 64 characters' })
  .regex(/^[A-Za-z0-9][A-Za-z0-9:._/-]*$/, { error: 'a scope must be letters, digits and : . _ / - (like invoices:read), starting with a letter or digit' })
  .refine((scope) => !USER_SCOPES.includes(scope), { error: 'openid, email, profile, offline_access and organizations are end users\' scopes; a machine client has no user' });

const ScopesSchema = z
  .array(MachineScopeSchema, { error: 'scopes must be a list' })
  .max(MAX_MACHINE_CLIENT_SCOPES, { error: `A machine client may hold at most ${MAX_MACHINE_CLIENT_SCOPES} scopes` })
  .transform((scopes) => [...new Set(scopes)]);
const NameSchema = z.string({ error: 'name is required' }).trim().min(1, { error: 'name is required' }).max(100, { error: 'name must be at most 100 characters' });

export const CreateMachineClientInputSchema = z.object({ name: NameSchema, scopes: ScopesSchema.default([]) });
export const UpdateMachineClientInputSchema = z.object({
  name: NameSchema.optional(),
  scopes: ScopesSchema.optional(),
  /** Revoking is for good: the client's secret stops working at once (tokens already issued run out within their lifetime). */
  revoked: z.literal(true, { error: 'revoked can only be set to true: a revoked client stays revoked' }).optional(),
});

export const MachineClientSchema = z.object({
  id: z.string(),
  name: z.string(),
  client_id: z.string(),
  /** The secret's last four characters, to tell which one a backend holds. */
  secret_hint: z.string(),
  scopes: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  secret_rotated_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type MachineClient = z.infer<typeof MachineClientSchema>;

/** Creating a client or rotating its secret: the only answers that hold the secret. */
export const MachineClientWithSecretSchema = MachineClientSchema.extend({ client_secret: z.string() });
export type MachineClientWithSecret = z.infer<typeof MachineClientWithSecretSchema>;
export const MachineClientListSchema = z.object({ machine_clients: z.array(MachineClientSchema) });
