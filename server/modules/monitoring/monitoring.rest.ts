import { z } from 'zod';
import {
  AdminStatsSchema,
  DevicePageSchema,
  DeviceSchema,
  IdParamSchema,
  LoginAttemptPageSchema,
  PageQuerySchema,
  SessionPageSchema,
  UserDetailSchema,
  UserPageSchema,
} from '../../../shared/schemas/admin.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { UserSchema } from '../../../shared/schemas/user.js';
import { defineRoute, type ErrorStatus, type RouteDoc } from '../../rest/route.js';
import type { AuditActor } from '../audit/audit.service.js';
import * as monitoring from './monitoring.service.js';

const actorOf = (caller: { session: { user: AuditActor['user'] }; info: AuditActor['info'] }): AuditActor => ({ user: caller.session.user, info: caller.info });

/** Where monitoring is mounted: the admin area over the platform's accounts, or a project owner over its end users. */
export interface MonitoringMount {
  over: 'platform' | 'project';
}
export const ADMIN_MONITORING: MonitoringMount = { over: 'platform' };
export const PROJECT_MONITORING: MonitoringMount = { over: 'project' };

type Item = 'user' | 'device' | 'session';
const Id = IdParamSchema.shape.id;

/**
 * The monitoring routes, declared once: /api/v1/admin/… (admin role) and /api/v1/projects/:id/…
 * (the project's owner). The mount's auth hook resolves the scope; every handler works within it.
 */
export function monitoringRoutes(mount: MonitoringMount) {
  const platform = mount.over === 'platform';
  const prefix = platform ? '/api/v1/admin' : '/api/v1/projects/:id';
  const auth = platform ? 'admin' : 'projectOwner';
  /** The item's path parameter: `:id` under /admin, `:user_id` (…) under /projects/:id, whose `:id` is the project. */
  const itemParam = (item: Item) => (platform ? 'id' : `${item}_id`);
  const paramsFor = (item?: Item) => {
    const shape: Record<string, typeof Id> = platform ? {} : { id: Id };
    if (item) shape[itemParam(item)] = Id;
    return Object.keys(shape).length ? z.object(shape) : undefined;
  };
  const itemId = (params: unknown, item: Item) => (params as Record<string, string>)[itemParam(item)]!;
  const doc = (verb: string, noun: string, summaries: [platform: string, project: string], extra: { description?: string; errors?: ErrorStatus[] } = {}): RouteDoc => ({
    operationId: `${verb}${platform ? 'Admin' : 'Project'}${noun}`,
    tag: platform ? 'Admin' : 'Project monitoring',
    summary: platform ? summaries[0] : summaries[1],
    ...extra,
  });
  const found = { errors: [404] as ErrorStatus[] };

  return [
    defineRoute({
      method: 'GET',
      url: `${prefix}/stats`,
      auth,
      params: paramsFor(),
      response: { 200: AdminStatsSchema },
      doc: doc('get', 'Stats', ['Platform-wide counts', "Counts over the project's end users"]),
      handler: ({ deps, caller }) => monitoring.getStats(deps, caller.scope),
    }),
    defineRoute({
      method: 'GET',
      url: `${prefix}/users`,
      auth,
      params: paramsFor(),
      query: PageQuerySchema,
      response: { 200: UserPageSchema },
      doc: doc('list', 'Users', ['Developer accounts, newest first', 'End users, newest first']),
      handler: ({ deps, caller, query }) => monitoring.getUsers(deps, caller.scope, query),
    }),
    defineRoute({
      method: 'GET',
      url: `${prefix}/users/:${itemParam('user')}`,
      auth,
      params: paramsFor('user'),
      response: { 200: UserDetailSchema },
      doc: doc('get', 'User', ['One account with its devices, sessions and login attempts', 'One end user with devices, sessions and login attempts'], found),
      handler: ({ deps, caller, params }) => monitoring.getUserDetail(deps, caller.scope, itemId(params, 'user')),
    }),
    defineRoute({
      method: 'PATCH',
      url: `${prefix}/users/:${itemParam('user')}/toggle-active`,
      auth,
      params: paramsFor('user'),
      response: { 200: UserSchema },
      doc: doc('toggle', 'UserActive', ['Deactivate or reactivate an account', 'Deactivate or reactivate an end user'], {
        ...found,
        ...(platform && { description: 'Deactivating signs the account out everywhere. An admin cannot deactivate their own account (403).' }),
      }),
      handler: ({ deps, caller, params }) => monitoring.toggleUserActive(deps, caller.scope, actorOf(caller), itemId(params, 'user')),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/users/:${itemParam('user')}/unlock`,
      auth,
      params: paramsFor('user'),
      response: { 200: UserSchema },
      doc: doc('unlock', 'User', ['Lift the throttling after repeated failed sign-ins', 'Lift the throttling of an end user'], found),
      handler: ({ deps, caller, params }) => monitoring.unlockUser(deps, caller.scope, actorOf(caller), itemId(params, 'user')),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/users/:${itemParam('user')}/reset-mfa`,
      auth,
      params: paramsFor('user'),
      response: { 200: UserSchema },
      doc: doc('resetMfa', 'User', ["Reset an account's second factors", "Reset an end user's second factors"], {
        ...found,
        description: 'Turns two factors off (authenticator app and recovery codes) for someone who lost them; the user is mailed.',
      }),
      handler: ({ deps, caller, params }) => monitoring.resetUserMfa(deps, caller.scope, actorOf(caller), itemId(params, 'user')),
    }),
    defineRoute({
      method: 'GET',
      url: `${prefix}/login-attempts`,
      auth,
      params: paramsFor(),
      query: PageQuerySchema,
      response: { 200: LoginAttemptPageSchema },
      doc: doc('list', 'LoginAttempts', ['Login attempts, newest first', "End users' login attempts"]),
      handler: ({ deps, caller, query }) => monitoring.getLoginAttempts(deps, caller.scope, query),
    }),
    defineRoute({
      method: 'GET',
      url: `${prefix}/devices`,
      auth,
      params: paramsFor(),
      query: PageQuerySchema,
      response: { 200: DevicePageSchema },
      doc: doc('list', 'Devices', ['Known devices', "End users' devices"]),
      handler: ({ deps, caller, query }) => monitoring.getDevices(deps, caller.scope, query),
    }),
    defineRoute({
      method: 'PATCH',
      url: `${prefix}/devices/:${itemParam('device')}/toggle-block`,
      auth,
      params: paramsFor('device'),
      response: { 200: DeviceSchema },
      doc: doc('toggle', 'DeviceBlock', ['Block or unblock a device', 'Block or unblock an end-user device'], found),
      handler: ({ deps, caller, params }) => monitoring.toggleDeviceBlock(deps, caller.scope, actorOf(caller), itemId(params, 'device')),
    }),
    defineRoute({
      method: 'PATCH',
      url: `${prefix}/devices/:${itemParam('device')}/toggle-trust`,
      auth,
      params: paramsFor('device'),
      response: { 200: DeviceSchema },
      doc: doc('toggle', 'DeviceTrust', ['Trust or distrust a device', 'Trust or distrust an end-user device'], found),
      handler: ({ deps, caller, params }) => monitoring.toggleDeviceTrust(deps, caller.scope, actorOf(caller), itemId(params, 'device')),
    }),
    defineRoute({
      method: 'GET',
      url: `${prefix}/sessions`,
      auth,
      params: paramsFor(),
      query: PageQuerySchema,
      response: { 200: SessionPageSchema },
      doc: doc('list', 'Sessions', ['Live sessions', "End users' live sessions"]),
      handler: ({ deps, caller, query }) => monitoring.getSessions(deps, caller.scope, query),
    }),
    defineRoute({
      method: 'DELETE',
      url: `${prefix}/sessions/:${itemParam('session')}`,
      auth,
      params: paramsFor('session'),
      response: { 200: MessageSchema },
      doc: doc('revoke', 'Session', ['Revoke a session', "Revoke an end user's session"], found),
      handler: ({ deps, caller, params }) => monitoring.revokeSessionById(deps, caller.scope, actorOf(caller), itemId(params, 'session')),
    }),
  ];
}
