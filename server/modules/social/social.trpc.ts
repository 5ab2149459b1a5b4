import { MessageSchema } from '../../../shared/schemas/common.js';
import { ProjectIdInputSchema } from '../../../shared/schemas/projects.js';
import {
  ConfirmIdentityLinkInputSchema,
  ConnectionSchema,
  ConnectionsSchema,
  IdentitiesSchema,
  IdentityIdInputSchema,
  SaveConnectionInputSchema,
  SignInProvidersSchema,
  SocialProviderSchema,
} from '../../../shared/schemas/social.js';
import { inputParser } from '../../lib/validate.js';
import { authedProcedure, projectProcedure, publicProcedure, router } from '../../trpc/init.js';
import {
  confirmIdentityLink,
  listIdentities,
  listProjectConnections,
  listSignInProviders,
  removeIdentity,
  removeProjectConnection,
  saveProjectConnection,
} from './social.service.js';

const ConnectionInputSchema = ProjectIdInputSchema.extend({ provider: SocialProviderSchema });

/**
 * The dashboard's side of sign-in with providers: the buttons, the developer's connected providers,
 * the mailed link, and each project's connections. The sign-in itself is a browser navigation (REST).
 */
export const socialRouter = router({
  providers: publicProcedure.output(SignInProvidersSchema).query(async ({ ctx }) => ({ providers: await listSignInProviders(ctx.deps, { realm: ctx.deps.platform, project: null }) })),

  identities: authedProcedure.output(IdentitiesSchema).query(({ ctx }) => listIdentities(ctx.deps, { realm: ctx.deps.platform, project: null }, ctx.auth.user)),

  removeIdentity: authedProcedure
    .input(inputParser(IdentityIdInputSchema))
    .output(MessageSchema)
    .mutation(({ ctx, input }) => removeIdentity(ctx.deps, ctx.auth.user, input.id)),

  confirmLink: publicProcedure
    .input(inputParser(ConfirmIdentityLinkInputSchema))
    .output(MessageSchema)
    .mutation(({ ctx, input }) => confirmIdentityLink(ctx.deps, ctx.deps.platform, input.token, ctx.request)),

  connections: projectProcedure()
    .input(inputParser(ProjectIdInputSchema))
    .output(ConnectionsSchema)
    .query(({ ctx, input }) => listProjectConnections(ctx.deps, ctx.auth.user, input.projectId)),

  saveConnection: projectProcedure()
    .input(inputParser(ConnectionInputSchema.extend(SaveConnectionInputSchema.shape)))
    .output(ConnectionSchema)
    .mutation(({ ctx, input }) => {
      const { projectId, provider, ...connection } = input;
      return saveProjectConnection(ctx.deps, ctx.auth.user, projectId, provider, connection, ctx.request);
    }),

  removeConnection: projectProcedure()
    .input(inputParser(ConnectionInputSchema))
    .output(MessageSchema)
    .mutation(({ ctx, input }) => removeProjectConnection(ctx.deps, ctx.auth.user, input.projectId, input.provider, ctx.request)),
});
