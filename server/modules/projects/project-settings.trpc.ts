import { MessageSchema } from '../../../shared/schemas/common.js';
import { MailPreviewInputSchema, MailPreviewSchema, ProjectSettingsSchema, UpdateProjectSettingsInputSchema } from '../../../shared/schemas/project-settings.js';
import { ProjectIdInputSchema } from '../../../shared/schemas/projects.js';
import { inputParser } from '../../lib/validate.js';
import { projectProcedure, router } from '../../trpc/init.js';
import * as settings from './project-settings.service.js';

/** A project's rules for its end users (viewer reads, admin changes and previews). */
export const projectSettingsRouter = router({
  get: projectProcedure()
    .input(inputParser(ProjectIdInputSchema))
    .output(ProjectSettingsSchema)
    .query(({ ctx, input }) => settings.getProjectSettings(ctx.deps, ctx.auth.user, input.projectId)),
  update: projectProcedure()
    .input(inputParser(ProjectIdInputSchema.extend({ changes: UpdateProjectSettingsInputSchema })))
    .output(ProjectSettingsSchema)
    .mutation(({ ctx, input }) => settings.updateProjectSettings(ctx.deps, ctx.auth.user, input.projectId, input.changes, ctx.request)),
  previewMail: projectProcedure()
    .input(inputParser(ProjectIdInputSchema.extend(MailPreviewInputSchema.shape)))
    .output(MailPreviewSchema)
    .mutation(({ ctx, input }) => {
      const { projectId, ...preview } = input;
      return settings.previewProjectMail(ctx.deps, ctx.auth.user, projectId, preview);
    }),
  sendTestMail: projectProcedure()
    .input(inputParser(ProjectIdInputSchema.extend(MailPreviewInputSchema.shape)))
    .output(MessageSchema)
    .mutation(({ ctx, input }) => {
      const { projectId, ...preview } = input;
      return settings.sendTestMail(ctx.deps, ctx.auth.user, projectId, preview);
    }),
});
