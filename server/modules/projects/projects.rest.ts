import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IdParamSchema, PageQuerySchema } from '../../../shared/schemas/admin.js';
import { AnalyticsQuerySchema, CreateApiKeyInputSchema, CreateProjectInputSchema, UpdateProjectInputSchema } from '../../../shared/schemas/projects.js';
import type { Deps } from '../../deps.js';
import { parseInput } from '../../lib/validate.js';
import { authenticateRequest } from '../../rest/authenticate.js';
import * as monitor from '../admin/admin.service.js';
import * as projects from './projects.service.js';

type Params = { id: string; key_id?: string; user_id?: string; device_id?: string; session_id?: string };

/** The developer's own projects, keys, dashboard and per-project monitoring; Bearer token of the developer. */
export function projectsRestRoutes(app: FastifyInstance, deps: Deps): void {
  const owner = async (request: FastifyRequest) => (await authenticateRequest(deps, request)).user;
  const param = (request: FastifyRequest, name: keyof Params) => parseInput(IdParamSchema, { id: (request.params as Params)[name] }).id;
  const page = (request: FastifyRequest) => parseInput(PageQuerySchema, request.query);
  /** Confirms ownership and gives the monitoring scope of one project's end users. */
  const scope = async (request: FastifyRequest) => {
    const project = await projects.requireOwnedProject(deps, await owner(request), param(request, 'id'));
    return { projectId: project.id };
  };

  app.get('/dashboard/stats', async (request) => projects.getDashboardStats(deps, await owner(request)));

  app.get('/projects', async (request) => ({ projects: await projects.listProjects(deps, await owner(request)) }));
  app.post('/projects', async (request, reply) => {
    const user = await owner(request);
    return reply.code(201).send(await projects.createProject(deps, user, parseInput(CreateProjectInputSchema, request.body)));
  });
  app.get('/projects/:id', async (request) => projects.getProject(deps, await owner(request), param(request, 'id')));
  app.patch('/projects/:id', async (request) => {
    const user = await owner(request);
    return projects.updateProject(deps, user, param(request, 'id'), parseInput(UpdateProjectInputSchema, request.body));
  });
  app.delete('/projects/:id', async (request) => projects.deleteProject(deps, await owner(request), param(request, 'id')));

  app.get('/projects/:id/api-keys', async (request) => ({ api_keys: await projects.listProjectApiKeys(deps, await owner(request), param(request, 'id')) }));
  app.post('/projects/:id/api-keys', async (request, reply) => {
    const user = await owner(request);
    const created = await projects.createApiKey(deps, user, param(request, 'id'), parseInput(CreateApiKeyInputSchema, request.body));
    return reply.code(201).header('cache-control', 'no-store').send(created);
  });
  app.delete('/projects/:id/api-keys/:key_id', async (request) =>
    projects.revokeProjectApiKey(deps, await owner(request), param(request, 'id'), param(request, 'key_id')),
  );

  app.get('/projects/:id/analytics', async (request) => {
    const user = await owner(request);
    return projects.getAnalytics(deps, user, param(request, 'id'), parseInput(AnalyticsQuerySchema, request.query).days);
  });

  // The admin area's views and actions, over this project's end users only.
  app.get('/projects/:id/stats', async (request) => monitor.getStats(deps, await scope(request)));
  app.get('/projects/:id/users', async (request) => monitor.getUsers(deps, await scope(request), page(request)));
  app.get('/projects/:id/users/:user_id', async (request) => monitor.getUserDetail(deps, await scope(request), param(request, 'user_id')));
  app.patch('/projects/:id/users/:user_id/toggle-active', async (request) => {
    const s = await scope(request);
    return monitor.toggleUserActive(deps, s, await owner(request), param(request, 'user_id'));
  });
  app.post('/projects/:id/users/:user_id/unlock', async (request) => monitor.unlockUser(deps, await scope(request), param(request, 'user_id')));
  app.get('/projects/:id/login-attempts', async (request) => monitor.getLoginAttempts(deps, await scope(request), page(request)));
  app.get('/projects/:id/devices', async (request) => monitor.getDevices(deps, await scope(request), page(request)));
  app.patch('/projects/:id/devices/:device_id/toggle-block', async (request) => monitor.toggleDeviceBlock(deps, await scope(request), param(request, 'device_id')));
  app.patch('/projects/:id/devices/:device_id/toggle-trust', async (request) => monitor.toggleDeviceTrust(deps, await scope(request), param(request, 'device_id')));
  app.get('/projects/:id/sessions', async (request) => monitor.getSessions(deps, await scope(request), page(request)));
  app.delete('/projects/:id/sessions/:session_id', async (request) => monitor.revokeSessionById(deps, await scope(request), param(request, 'session_id')));
}
