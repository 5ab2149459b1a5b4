import type { z } from 'zod';
import { CaptchaConfigSchema } from '../../../shared/schemas/auth.js';
import { AppError } from '../../errors.js';
import { AltchaChallengeSchema } from '../../openapi/schemas.js';
import { defineRoute, ANYONE } from '../../rest/route.js';

export const captchaRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/captcha/config',
    procedure: 'config',
    access: ANYONE,
    response: { 200: CaptchaConfigSchema },
    doc: { operationId: 'getCaptchaConfig', tag: 'Captcha', summary: 'Which captcha the forms must show' },
    handler: async ({ deps }) => deps.captcha.config(),
  }),
  /** ALTCHA's proof-of-work challenge; only served when that provider is configured. */
  defineRoute({
    method: 'GET',
    url: '/api/v1/captcha/challenge',
    access: ANYONE,
    response: { 200: AltchaChallengeSchema },
    doc: {
      operationId: 'getCaptchaChallenge',
      tag: 'Captcha',
      summary: 'A fresh ALTCHA proof-of-work challenge',
      description: 'Only when the provider is `altcha`; 404 otherwise. Never cached.',
      errors: [404, 429],
    },
    async handler({ deps, caller, reply }) {
      if (!deps.captcha.createChallenge) throw new AppError('NOT_FOUND', 'The configured captcha provider has no challenge endpoint');
      await deps.limiters.captchaChallengePerIp.consume(caller.info.network);
      reply.header('cache-control', 'no-store');
      // altcha-lib's Challenge type has no index signature; the schema lets its extra fields through.
      return deps.captcha.createChallenge() as Promise<z.input<typeof AltchaChallengeSchema>>;
    },
  }),
];
