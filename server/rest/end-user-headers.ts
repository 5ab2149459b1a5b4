import { z } from 'zod';

/** Headers a developer's backend may add on public-API calls so limits and logs see its end user. */
export const EndUserHeadersSchema = z.object({
  'X-End-User-IP': z.string().optional().meta({ description: "The end user's IPv4 or IPv6 address; anything else is ignored and the caller's address is used." }),
  'X-End-User-Agent': z.string().optional().meta({ description: "The end user's User-Agent (first 512 characters kept)." }),
});
