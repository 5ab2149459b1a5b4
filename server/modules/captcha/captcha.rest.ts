import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { requestInfoOf } from '../../plugins/request-info.js';

export function captchaRestRoutes(app: FastifyInstance, deps: Deps): void {
  app.get('/captcha/config', async () => deps.captcha.config());

  /** ALTCHA's proof-of-work challenge; only served when that provider is configured. */
  app.get('/captcha/challenge', async (request, reply) => {
    if (!deps.captcha.createChallenge) throw new AppError('NOT_FOUND', 'The configured captcha provider has no challenge endpoint');
    await deps.limiters.captchaChallengePerIp.consume(requestInfoOf(request).ip);
    reply.header('cache-control', 'no-store');
    return deps.captcha.createChallenge();
  });
}
