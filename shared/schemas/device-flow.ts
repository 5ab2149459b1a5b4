import { z } from 'zod';

/** The code the user types on the hosted device page (XXXX-XXXX; case, spaces and dashes ignored). */
export const UserCodeInputSchema = z.object({
  user_code: z.string({ error: 'Enter the code shown on your device' }).trim().min(1, { error: 'Enter the code shown on your device' }).max(20, { error: 'The code is 8 letters' }),
});
export type UserCodeInput = z.infer<typeof UserCodeInputSchema>;

/** What a device's request asks for, shown before the user approves or denies it. */
export const DeviceRequestSchema = z.object({
  user_code: z.string(),
  app_name: z.string(),
  scopes: z.array(z.string()),
  expires_at: z.string(),
});
export type DeviceRequest = z.infer<typeof DeviceRequestSchema>;
