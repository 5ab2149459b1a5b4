import { z } from 'zod';
import { IdInputSchema, ProjectIdInputSchema } from '../../../shared/schemas/projects.js';
import { LocalMailListSchema, LocalMailMessageSchema, MailDeliveryPageSchema, MailDeliveryQuerySchema, MailDeliverySchema } from '../../../shared/schemas/mail.js';
import { inputParser, noInput } from '../../lib/validate.js';
import { adminProcedure, projectProcedure, publicProcedure, router } from '../../trpc/init.js';
import { projectScopeOf } from '../projects/project-access.js';
import { listLocalMails, readLocalMail } from './local-mail.service.js';
import { getMailDeliveries, resendMail } from './mail-deliveries.service.js';

const OptionalQuerySchema = MailDeliveryQuerySchema.optional().transform((q) => q ?? MailDeliveryQuerySchema.parse({}));
const MailIdInputSchema = z.object({ id: IdInputSchema });

/** Admin → Mail: every mail, with resend. */
export const adminMailRouter = router({
  mail: adminProcedure
    .input(inputParser(OptionalQuerySchema))
    .output(MailDeliveryPageSchema)
    .query(({ ctx, input }) => getMailDeliveries(ctx.deps, undefined, input)),
  resendMail: adminProcedure
    .input(inputParser(MailIdInputSchema))
    .output(MailDeliverySchema)
    .mutation(({ ctx, input }) => resendMail(ctx.deps, { user: ctx.auth.user, info: ctx.request }, undefined, input.id)),
});

/** A project's monitoring → Mail: its end users' mails; resend for its owners and admins. */
export const projectMailRouter = router({
  mail: projectProcedure()
    .input(inputParser(ProjectIdInputSchema.extend(MailDeliveryQuerySchema.shape)))
    .output(MailDeliveryPageSchema)
    .query(async ({ ctx, input }) => {
      const { projectId, ...query } = input;
      const scope = await projectScopeOf(ctx.deps, ctx.auth.user, projectId, 'viewer');
      return getMailDeliveries(ctx.deps, scope.projectId!, query);
    }),
  resendMail: projectProcedure()
    .input(inputParser(ProjectIdInputSchema.extend(MailIdInputSchema.shape)))
    .output(MailDeliverySchema)
    .mutation(async ({ ctx, input }) => {
      const scope = await projectScopeOf(ctx.deps, ctx.auth.user, input.projectId, 'admin');
      return resendMail(ctx.deps, { user: ctx.auth.user, info: ctx.request }, scope.projectId!, input.id);
    }),
});

/** The local demo's Mail page (local-mail.service.ts says who may read it). */
export const localMailRouter = router({
  list: publicProcedure
    .input(noInput)
    .output(LocalMailListSchema)
    .query(({ ctx }) => listLocalMails(ctx.deps, ctx.req)),
  message: publicProcedure
    .input(inputParser(MailIdInputSchema))
    .output(LocalMailMessageSchema)
    .query(({ ctx, input }) => readLocalMail(ctx.deps, ctx.req, input.id)),
});
