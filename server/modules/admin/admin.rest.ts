import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IdParamSchema, PageQuerySchema } from '../../../shared/schemas/admin.js';
import type { Deps } from '../../deps.js';
import { parseInput } from '../../lib/validate.js';
import { authenticateAdmin } from '../../rest/authenticate.js';
import type { Authenticated } from '../sessions/sessions.service.js';
import * as admin from './admin.service.js';

const PLATFORM: admin.MonitorScope = { projectId: null };

declare module 'fastify' {
  interface FastifyRequest {
    admin: Authenticated | null;
  }
}

export function adminRestRoutes(app: FastifyInstance, deps: Deps): void {
  app.register(async (scope) => {
    // Every admin path checks the role on the server before its handler runs.
    scope.decorateRequest('admin', null);
    scope.addHook('onRequest', async (request) => {
      request.admin = await authenticateAdmin(deps, request);
    });
    const actor = (request: FastifyRequest) => request.admin!.user;
    const page = (request: FastifyRequest) => parseInput(PageQuerySchema, request.query);
    const id = (request: FastifyRequest) => parseInput(IdParamSchema, request.params).id;

    scope.get('/admin/stats', async () => admin.getStats(deps, PLATFORM));
    scope.get('/admin/users', async (request) => admin.getUsers(deps, PLATFORM, page(request)));
    scope.get('/admin/users/:id', async (request) => admin.getUserDetail(deps, PLATFORM, id(request)));
    scope.patch('/admin/users/:id/toggle-active', async (request) => admin.toggleUserActive(deps, PLATFORM, actor(request), id(request)));
    scope.post('/admin/users/:id/unlock', async (request) => admin.unlockUser(deps, PLATFORM, id(request)));
    scope.get('/admin/login-attempts', async (request) => admin.getLoginAttempts(deps, PLATFORM, page(request)));
    scope.get('/admin/devices', async (request) => admin.getDevices(deps, PLATFORM, page(request)));
    scope.patch('/admin/devices/:id/toggle-block', async (request) => admin.toggleDeviceBlock(deps, PLATFORM, id(request)));
    scope.patch('/admin/devices/:id/toggle-trust', async (request) => admin.toggleDeviceTrust(deps, PLATFORM, id(request)));
    scope.get('/admin/sessions', async (request) => admin.getSessions(deps, PLATFORM, page(request)));
    scope.delete('/admin/sessions/:id', async (request) => admin.revokeSessionById(deps, PLATFORM, id(request)));
  });
}
