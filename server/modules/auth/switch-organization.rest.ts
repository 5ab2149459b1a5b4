import { TokenPairSchema } from '../../../shared/schemas/auth.js';
import { SwitchOrganizationInputSchema } from '../../../shared/schemas/organizations.js';
import { accountMountOf, type AccountMount } from '../../rest/account-mount.js';
import { defineRoute } from '../../rest/route.js';
import { switchOrganization } from '../sessions/sessions.service.js';

/** The end user moves their session into one of their organizations: its tokens then carry it (public API and hosted pages). */
export function switchOrganizationRoutes(mount: AccountMount) {
  const { prefix, signedIn, cookies, doc } = accountMountOf(mount);
  const summary = "Move the session into one of the user's organizations (or out, with null)";
  const description =
    'Answers a new token pair whose access token carries `org_id`, `org_slug`, `org_role` and `org_permissions`; the session\'s earlier refresh token counts as spent, so keep the new pair. 404 for an organization the project does not have, 403 for one the user is not a member of.';
  return [
    defineRoute({
      method: 'POST',
      url: `${prefix}/auth/switch-organization`,
      access: signedIn,
      body: SwitchOrganizationInputSchema,
      response: { 200: TokenPairSchema },
      doc: doc({ operationId: 'publicSwitchOrganization', tag: 'Public API', summary, description, errors: [403, 404] }, { operationId: 'publicSwitchOrganization', summary, description, errors: [403, 404] }),
      async handler({ deps, caller, body, request, reply }) {
        const tokens = await switchOrganization(deps, caller.realm, caller.session, body.organization_id, caller.info);
        cookies?.set(reply, request, deps.config, tokens, caller.realm.policy);
        return tokens;
      },
    }),
  ];
}
