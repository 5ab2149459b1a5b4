import { z } from 'zod';

/** What a project's hosted pages show of it: its name and branding. */
export const HostedProjectSchema = z.object({
  name: z.string(),
  project_key: z.string(),
  logo_url: z.string().nullable(),
  /** #rrggbb, or null for the platform's colour. */
  accent_color: z.string().nullable(),
  website_url: z.string().nullable(),
});
export type HostedProject = z.infer<typeof HostedProjectSchema>;
