import { z } from 'zod';
import { IdParamSchema } from '../../../shared/schemas/admin.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import {
  AnalyticsQuerySchema,
  AnalyticsSchema,
  ApiKeySchema,
  CreateApiKeyInputSchema,
  CreatedApiKeySchema,
  CreateProjectInputSchema,
  DashboardStatsSchema,
  ProjectSchema,
  UpdateProjectInputSchema,
} from '../../../shared/schemas/projects.js';
import { ApiKeyListSchema, ProjectListSchema } from '../../openapi/schemas.js';
import { defineRoute, SIGNED_IN, TEAM, teamRole } from '../../rest/route.js';
import * as projects from './projects.service.js';

const Id = IdParamSchema.shape.id;
const ProjectParams = z.object({ id: Id });

/** The developer's projects, keys, dashboard and analytics; Bearer token of the developer, on the project's team with the route's role. */
export const projectsRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/dashboard/stats',
    procedure: 'dashboardStats',
    access: SIGNED_IN,
    response: { 200: DashboardStatsSchema },
    doc: { operationId: 'getDashboardStats', tag: 'Projects', summary: "Counts over the developer's projects" },
    handler: ({ deps, caller }) => projects.getDashboardStats(deps, caller.session.user),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects',
    procedure: 'list',
    access: SIGNED_IN,
    response: { 200: ProjectListSchema },
    doc: { operationId: 'listProjects', tag: 'Projects', summary: "The developer's projects" },
    handler: async ({ deps, caller }) => ({ projects: await projects.listProjects(deps, caller.session.user) }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/projects',
    procedure: 'create',
    access: SIGNED_IN,
    body: CreateProjectInputSchema,
    response: { 201: ProjectSchema },
    doc: {
      operationId: 'createProject',
      tag: 'Projects',
      summary: 'Create a project',
      description: 'Needs a verified e-mail address (403); 409 past the per-account project limit.',
      errors: [409],
    },
    handler: ({ deps, caller, body }) => projects.createProject(deps, caller.session.user, body, caller.info),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:id',
    procedure: 'get',
    access: TEAM,
    params: ProjectParams,
    response: { 200: ProjectSchema },
    doc: { operationId: 'getProject', tag: 'Projects', summary: 'One project', errors: [404] },
    handler: ({ deps, caller, params }) => projects.getProject(deps, caller.session.user, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    url: '/api/v1/projects/:id',
    procedure: 'update',
    access: TEAM,
    params: ProjectParams,
    body: UpdateProjectInputSchema,
    response: { 200: ProjectSchema },
    doc: { operationId: 'updateProject', tag: 'Projects', summary: 'Update a project', description: 'Fields left out stay as they are. At most 30 changes a minute per developer (429).', errors: [404, 429] },
    handler: ({ deps, caller, params, body }) => projects.updateProject(deps, caller.session.user, params.id, body, caller.info),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/v1/projects/:id',
    procedure: 'delete',
    access: teamRole('owner'),
    params: ProjectParams,
    response: { 200: MessageSchema },
    doc: { operationId: 'deleteProject', tag: 'Projects', summary: 'Delete a project with its keys and end users', errors: [404] },
    handler: ({ deps, caller, params }) => projects.deleteProject(deps, caller.session.user, params.id, caller.info),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:id/api-keys',
    procedure: 'apiKeys',
    access: TEAM,
    params: ProjectParams,
    response: { 200: ApiKeyListSchema },
    doc: { operationId: 'listApiKeys', tag: 'Projects', summary: "A project's API keys (never their secrets)", errors: [404] },
    handler: async ({ deps, caller, params }) => ({ api_keys: await projects.listProjectApiKeys(deps, caller.session.user, params.id) }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/projects/:id/api-keys',
    procedure: 'createApiKey',
    access: TEAM,
    params: ProjectParams,
    body: CreateApiKeyInputSchema,
    response: { 201: CreatedApiKeySchema },
    doc: {
      operationId: 'createApiKey',
      tag: 'Projects',
      summary: 'Create an API key',
      description: 'The secret is in this answer only, never again. Needs a verified e-mail address (403); 409 past the per-project key limit.',
      errors: [404, 409],
    },
    async handler({ deps, caller, params, body, reply }) {
      const created = await projects.createApiKey(deps, caller.session.user, params.id, body, caller.info);
      reply.header('cache-control', 'no-store');
      return created;
    },
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/v1/projects/:id/api-keys/:key_id',
    procedure: 'revokeApiKey',
    access: TEAM,
    params: z.object({ id: Id, key_id: Id }),
    response: { 200: ApiKeySchema },
    doc: { operationId: 'revokeApiKey', tag: 'Projects', summary: 'Revoke an API key', errors: [404] },
    handler: ({ deps, caller, params }) => projects.revokeProjectApiKey(deps, caller.session.user, params.id, params.key_id, caller.info),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/projects/:id/analytics',
    procedure: 'analytics',
    access: TEAM,
    params: ProjectParams,
    query: AnalyticsQuerySchema,
    response: { 200: AnalyticsSchema },
    doc: {
      operationId: 'getProjectAnalytics',
      tag: 'Projects',
      summary: 'Daily sign-ups, logins and API requests; sign-ins by method and country, failures by reason',
      description:
        'The period is the last `days` UTC days (1–366, default 30) or the UTC days `from` to `to` (YYYY-MM-DD, both counted, at most 366 days). Giving both, one of from and to, or from after to is a 422.',
      errors: [404],
    },
    handler: ({ deps, caller, params, query }) => projects.getAnalytics(deps, caller.session.user, params.id, query),
  }),
];
