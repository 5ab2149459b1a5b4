import { DeleteAccountInputSchema, UpdateProfileInputSchema } from '../../../shared/schemas/auth.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { UserSchema } from '../../../shared/schemas/user.js';
import { clearAuthCookies } from '../../plugins/auth-cookies.js';
import { defineRoute, SIGNED_IN } from '../../rest/route.js';
import { deleteAccount, updateProfile } from './profile.service.js';
import { toUser } from '../users/user.mapper.js';

export const profileRoutes = [
  defineRoute({
    method: 'PATCH',
    url: '/api/v1/auth/profile',
    procedure: 'update',
    access: SIGNED_IN,
    body: UpdateProfileInputSchema,
    response: { 200: UserSchema },
    doc: {
      operationId: 'updateProfile',
      tag: 'Profile',
      summary: 'Update names and preferences (mail, session idle timeout)',
      description:
        'Fields left out stay as they are. `session_idle_timeout_minutes` (15–480, or null for none): a session unused for longer is refused, on access and on refresh.',
      errors: [404],
    },
    handler: async ({ deps, caller, body }) => toUser(await updateProfile(deps, caller.session.user, body)),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/auth/delete-account',
    procedure: 'deleteAccount',
    access: SIGNED_IN,
    body: DeleteAccountInputSchema,
    response: { 200: MessageSchema },
    doc: {
      operationId: 'deleteAccount',
      tag: 'Profile',
      summary: 'Delete the account',
      description: 'Needs the current password (401 otherwise), or without one a recent step-up (401 step_up_required). Deletes the account, its projects with their end users, its sessions, and clears the cookies.',
      errors: [404, 429],
    },
    async handler({ deps, caller, body, reply }) {
      const result = await deleteAccount(deps, caller.session, body, caller.info);
      clearAuthCookies(reply, deps.config);
      return result;
    },
  }),
];
