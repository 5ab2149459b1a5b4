import { Readable } from 'node:stream';
import { z } from 'zod';
import { RevocationPageSchema, RevocationQuerySchema, RevocationStreamQuerySchema } from '../../../shared/schemas/revocations.js';
import { API_KEY, defineRoute, UnvalidatedParam } from '../../rest/route.js';
import { decodeCursor, readRevocationPage, requireOwnFeed } from './revocations.service.js';

const EventStreamSchema = z.custom<Readable>((value) => value instanceof Readable);
const params = z.object({ project_key: UnvalidatedParam });

const FEED =
  "Every end-user session of the project that ended before its time: signed out, revoked by the end user, the project's team or the app, refresh-token or code reuse, password reset or change, e-mail change, deactivation, a blocked device, the idle timeout, the account deleted. " +
  "Session ids are the `sid` claim of the access tokens, so a backend that verifies tokens offline refuses a revoked session's token without asking. " +
  "A row is kept until every access token of its session has expired (`expires_at`). Needs the project's API key: ids and times tell when end users come and go.";

/** The revocation feed (issue 31) for a project's backend, with its API key. */
export const revocationRoutes = [
  defineRoute({
    method: 'GET',
    url: '/public/api/v1/projects/:project_key/revocations',
    access: API_KEY,
    params,
    query: RevocationQuerySchema,
    response: { 200: RevocationPageSchema },
    doc: {
      operationId: 'listRevocations',
      tag: 'Public API',
      summary: "The project's revoked sessions since a cursor",
      description: `${FEED} Oldest first, at most \`limit\` a page; pass the answer's \`cursor\` as \`since\` to read on (the cursor is kept when nothing came).`,
      errors: [404],
    },
    async handler({ deps, caller, params, query }) {
      requireOwnFeed(caller.project, params.project_key);
      return readRevocationPage(deps, caller.project.id, query.since, query.limit);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/public/api/v1/projects/:project_key/revocations/stream',
    access: API_KEY,
    params,
    query: RevocationStreamQuerySchema,
    response: { 200: EventStreamSchema },
    doc: {
      operationId: 'streamRevocations',
      tag: 'Public API',
      summary: "The project's revoked sessions as server-sent events",
      description:
        `${FEED} The stream replays what came after \`Last-Event-ID\` (or \`since\`; from the start without either), sends \`event: ready\` once it caught up, then each revocation as ` +
        '`event: revocation` with the row as JSON in `data` and its cursor as `id`, within a second of the revocation on any instance. A comment line every 15 s keeps it alive; it ends when the server stops (reconnect with the last id).',
      errors: [404],
      produces: 'text/event-stream',
    },
    async handler({ deps, caller, params, query, request, reply }) {
      requireOwnFeed(caller.project, params.project_key);
      const lastEventId = request.headers['last-event-id'];
      const from = decodeCursor(typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : query.since);
      const body = await deps.revocationStreams.open(caller.project.id, from);
      reply.raw.on('close', () => body.destroy());
      reply.type('text/event-stream; charset=utf-8').header('cache-control', 'no-store').header('x-accel-buffering', 'no');
      return body;
    },
  }),
];
