import type { FastifyInstance } from 'fastify';
import { DeleteAccountInputSchema, UpdateProfileInputSchema } from '../../../shared/schemas/auth.js';
import { clearAuthCookies } from '../../plugins/auth-cookies.js';
import type { Deps } from '../../deps.js';
import { parseInput } from '../../lib/validate.js';
import { authenticateRequest } from '../../rest/authenticate.js';
import { deleteAccount, updateProfile } from './profile.service.js';

export function profileRestRoutes(app: FastifyInstance, deps: Deps): void {
  app.patch('/auth/profile', async (request) => {
    const auth = await authenticateRequest(deps, request);
    return updateProfile(deps, auth.user, parseInput(UpdateProfileInputSchema, request.body));
  });

  app.post('/auth/delete-account', async (request, reply) => {
    const auth = await authenticateRequest(deps, request);
    parseInput(DeleteAccountInputSchema, request.body);
    const result = await deleteAccount(deps, auth.user);
    clearAuthCookies(reply, deps.config);
    return result;
  });
}
