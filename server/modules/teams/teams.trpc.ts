import { MessageSchema } from '../../../shared/schemas/common.js';
import { IdInputSchema, ProjectIdInputSchema } from '../../../shared/schemas/projects.js';
import {
  AcceptedInvitationSchema,
  ChangeRoleInputSchema,
  InvitationPreviewSchema,
  InvitationSchema,
  InvitationTokenInputSchema,
  InviteMemberInputSchema,
  MemberSchema,
  TeamSchema,
} from '../../../shared/schemas/teams.js';
import { inputParser } from '../../lib/validate.js';
import { authedProcedure, projectProcedure, publicProcedure, router } from '../../trpc/init.js';
import * as teams from './teams.service.js';

const MemberInput = ProjectIdInputSchema.extend({ userId: IdInputSchema });

/** The same operations as teams.rest.ts, for the dashboard. */
export const teamsRouter = router({
  get: projectProcedure()
    .input(inputParser(ProjectIdInputSchema))
    .output(TeamSchema)
    .query(({ ctx, input }) => teams.getTeam(ctx.deps, ctx.auth.user, input.projectId)),
  invite: projectProcedure()
    .input(inputParser(ProjectIdInputSchema.extend(InviteMemberInputSchema.shape)))
    .output(InvitationSchema)
    .mutation(({ ctx, input }) => teams.inviteMember(ctx.deps, ctx.auth.user, input.projectId, input, ctx.request)),
  revokeInvitation: projectProcedure()
    .input(inputParser(ProjectIdInputSchema.extend({ invitationId: IdInputSchema })))
    .output(MessageSchema)
    .mutation(({ ctx, input }) => teams.revokeInvitation(ctx.deps, ctx.auth.user, input.projectId, input.invitationId, ctx.request)),
  changeRole: projectProcedure()
    .input(inputParser(MemberInput.extend(ChangeRoleInputSchema.shape)))
    .output(MemberSchema)
    .mutation(({ ctx, input }) => teams.changeMemberRole(ctx.deps, ctx.auth.user, input.projectId, input.userId, input.role, ctx.request)),
  removeMember: projectProcedure()
    .input(inputParser(MemberInput))
    .output(MessageSchema)
    .mutation(({ ctx, input }) => teams.removeMember(ctx.deps, ctx.auth.user, input.projectId, input.userId, ctx.request)),
  leave: projectProcedure('viewer')
    .input(inputParser(ProjectIdInputSchema))
    .output(MessageSchema)
    .mutation(({ ctx, input }) => teams.removeMember(ctx.deps, ctx.auth.user, input.projectId, ctx.auth.user.id, ctx.request)),
  previewInvitation: publicProcedure
    .input(inputParser(InvitationTokenInputSchema))
    .output(InvitationPreviewSchema)
    .query(({ ctx, input }) => teams.previewInvitation(ctx.deps, input.token)),
  acceptInvitation: authedProcedure
    .input(inputParser(InvitationTokenInputSchema))
    .output(AcceptedInvitationSchema)
    .mutation(({ ctx, input }) => teams.acceptInvitation(ctx.deps, ctx.auth.user, input.token, ctx.request)),
});
