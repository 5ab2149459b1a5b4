import { z } from 'zod';
import {
  AdminStatsSchema,
  DevicePageSchema,
  DeviceSchema,
  IdParamSchema,
  LoginAttemptPageSchema,
  DeviceListQuerySchema,
  LoginAttemptListQuerySchema,
  SessionListQuerySchema,
  SessionPageSchema,
  UserListQuerySchema,
  UserPageSchema,
  CreateUserInputSchema,
} from '../../../shared/schemas/admin.js';
import { UserDetailSchema } from '../../../shared/schemas/user-detail.js';
import { MessageSchema } from '../../../shared/schemas/common.js';
import { UserSchema } from '../../../shared/schemas/user.js';
import { EXPORT_MAX_ROWS } from '../../lib/csv.js';
import type { CsvExport } from '../../lib/csv-export.js';
import { csvAnswer, CsvSchema, withoutPaging } from '../../rest/csv-answer.js';
import { ADMIN, defineRoute, TEAM, type ErrorStatus, type RouteDoc } from '../../rest/route.js';
import type { AuditActor } from '../changes/record-change.js';
import * as monitoring from './monitoring.service.js';
import type { Deps } from '../../deps.js';
import type { MonitorScope } from '../realms/realm.js';

const actorOf = (caller: { session: { user: AuditActor['user'] }; info: AuditActor['info'] }): AuditActor => ({ user: caller.session.user, info: caller.info });

/** Where monitoring is mounted: the admin area over the platform's accounts, or a project owner over its end users. */
export interface MonitoringMount {
  over: 'platform' | 'project';
}
export const ADMIN_MONITORING: MonitoringMount = { over: 'platform' };
export const PROJECT_MONITORING: MonitoringMount = { over: 'project' };

type Item = 'user' | 'device' | 'session';
type MonitorParams = Partial<Record<'id' | `${Item}_id`, typeof Id>>;

const FILTERS = {
  users: '`q` searches the e-mail and names; `status` (active, inactive), `verified` (true, false), `from`/`to` bound the sign-up date.',
  attempts: '`q` searches the e-mail, IP address and device; `outcome` (success, failure), `vpn` (true: VPN or proxy; false: neither), `country` (two letters), `from`/`to` bound the time.',
  devices: '`q` searches the device id, the owner\'s e-mail and the last IP address; `status` (blocked, trusted), `from`/`to` bound the last sighting.',
  sessions: '`q` searches the e-mail, IP address and device; `from`/`to` bound the start.',
};

const EXPORT_RULES = `Every row matching when the export starts (at most ${EXPORT_MAX_ROWS}, newest first: devices by first sighting, sessions by start; \`X-Export-Rows\` says how many, \`X-Export-Truncated: true\` that there were more), streamed as a CSV download; cells a spreadsheet would run as formulas are quoted as text. One export of yours runs at a time: another one meanwhile answers 429.`;

const Id = IdParamSchema.shape.id;

const SignedOutSchema = MessageSchema.extend({ revoked: z.number().int() });

/**
 * The monitoring routes, declared once: /api/v1/admin/… (admin role) and /api/v1/projects/:id/…
 * (the project's owner). The mount's auth hook resolves the scope; every handler works within it.
 */
export function monitoringRoutes(mount: MonitoringMount) {
  const platform = mount.over === 'platform';
  const prefix = platform ? '/api/v1/admin' : '/api/v1/projects/:id';
  const auth = platform ? ADMIN : TEAM;
  /** The item's path parameter: `:id` under /admin, `:user_id` (…) under /projects/:id, whose `:id` is the project. */
  const itemParam = (item: Item) => (platform ? 'id' : `${item}_id`);
  const paramsFor = (item?: Item) => {
    const shape: Record<string, typeof Id> = platform ? {} : { id: Id };
    if (item) shape[itemParam(item)] = Id;
    // Typed for the procedures as every name either mount may use: `id` (the admin area's item, a project's project), `user_id`, ….
    return (Object.keys(shape).length ? z.object(shape) : undefined) as z.ZodObject<MonitorParams> | undefined;
  };
  const itemId = (params: unknown, item: Item) => (params as Record<string, string>)[itemParam(item)]!;
  const doc = (verb: string, noun: string, summaries: [platform: string, project: string], extra: Pick<RouteDoc, 'description' | 'errors' | 'produces'> = {}): RouteDoc => ({
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
      procedure: 'stats',
      access: auth,
      params: paramsFor(),
      response: { 200: AdminStatsSchema },
      doc: doc('get', 'Stats', ['Platform-wide counts', "Counts over the project's end users"]),
      handler: ({ deps, caller }) => monitoring.getStats(deps, caller.scope),
    }),
    defineRoute({
      method: 'GET',
      url: `${prefix}/users`,
      procedure: 'users',
      access: auth,
      params: paramsFor(),
      query: UserListQuerySchema,
      response: { 200: UserPageSchema },
      doc: doc('list', 'Users', ['Developer accounts, newest first', 'End users, newest first'], { description: FILTERS.users }),
      handler: ({ deps, caller, query }) => monitoring.getUsers(deps, caller.scope, query),
    }),
    defineRoute({
      method: 'GET',
      url: `${prefix}/users/:${itemParam('user')}`,
      procedure: 'user',
      access: auth,
      params: paramsFor('user'),
      response: { 200: UserDetailSchema },
      doc: doc('get', 'User', ['One account with its devices, sessions and login attempts', 'One end user with devices, sessions and login attempts'], {
        ...found,
        description:
          'The account with its ways in (`has_password`, `passkeys`, `identities`, `enterprise_identities`: the SAML/OpenID Connect connections it signed in through or whose IdP provisions it by SCIM, `mfa_enabled`), its live sessions and devices (each with a `device_label` such as "Chrome on Linux"), its 20 latest login attempts and the 20 latest audit entries about it (the account, its sessions and its devices), newest first.',
      }),
      handler: ({ deps, caller, params }) => monitoring.getUserDetail(deps, caller.scope, itemId(params, 'user')),
    }),
    defineRoute({
      method: 'PATCH',
      url: `${prefix}/users/:${itemParam('user')}/toggle-active`,
      procedure: 'toggleUserActive',
      access: auth,
      params: paramsFor('user'),
      response: { 200: UserSchema },
      doc: doc('toggle', 'UserActive', ['Deactivate or reactivate an account', 'Deactivate or reactivate an end user'], {
        ...found,
        ...(platform && { description: 'Deactivating signs the account out everywhere. An admin cannot deactivate their own account (403).' }),
      }),
      handler: ({ deps, caller, params }) => monitoring.toggleUserActive(deps, caller.scope, actorOf(caller), itemId(params, 'user')),
    }),
    defineRoute({
      method: 'DELETE',
      url: `${prefix}/users/:${itemParam('user')}`,
      procedure: 'deleteUser',
      access: auth,
      params: paramsFor('user'),
      response: { 200: MessageSchema },
      doc: doc('delete', 'User', ['Delete a developer account', 'Delete an end user'], {
        ...found,
        description: platform
          ? 'Deletes the account for good with its projects and their end users. An admin cannot delete their own account here (403).'
          : 'Deletes the end user for good (sessions, devices, login history); the project\'s webhooks get `user.deleted`.',
      }),
      handler: ({ deps, caller, params }) => monitoring.deleteUserById(deps, caller.scope, actorOf(caller), itemId(params, 'user')),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/users/:${itemParam('user')}/unlock`,
      procedure: 'unlockUser',
      access: auth,
      params: paramsFor('user'),
      response: { 200: UserSchema },
      doc: doc('unlock', 'User', ['Lift the throttling after repeated failed sign-ins', 'Lift the throttling of an end user'], found),
      handler: ({ deps, caller, params }) => monitoring.unlockUser(deps, caller.scope, actorOf(caller), itemId(params, 'user')),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/users/:${itemParam('user')}/reset-mfa`,
      procedure: 'resetUserMfa',
      access: auth,
      params: paramsFor('user'),
      response: { 200: UserSchema },
      doc: doc('resetMfa', 'User', ["Reset an account's second factors", "Reset an end user's second factors"], {
        ...found,
        description: 'Turns two factors off (authenticator app and recovery codes) for someone who lost them; the user is mailed.',
      }),
      handler: ({ deps, caller, params }) => monitoring.resetUserMfa(deps, caller.scope, actorOf(caller), itemId(params, 'user')),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/users/:${itemParam('user')}/resend-verification`,
      procedure: 'resendUserVerification',
      access: auth,
      params: paramsFor('user'),
      response: { 200: MessageSchema },
      doc: doc('resendVerification', 'User', ['Mail an account a new verification link', 'Mail an end user a new verification link'], {
        errors: [404, 409, 429],
        description: 'A fresh link, as the account\'s own "resend" would send (no captcha). 409 when the address is already verified or the account is deactivated; 429 past the address\'s hourly mail cap. Audited as `user.verification_sent`.',
      }),
      handler: ({ deps, caller, params }) => monitoring.resendUserVerification(deps, caller.scope, actorOf(caller), itemId(params, 'user')),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/users/:${itemParam('user')}/send-password-reset`,
      procedure: 'sendUserPasswordReset',
      access: auth,
      params: paramsFor('user'),
      response: { 200: MessageSchema },
      doc: doc('sendPasswordReset', 'User', ['Mail an account a password reset link', 'Mail an end user a password reset link'], {
        errors: [404, 409, 429],
        description: 'The link "forgot password" sends (one hour, once). 409 when the account is deactivated; 429 past the address\'s hourly mail cap. Audited as `user.password_reset_sent`.',
      }),
      handler: ({ deps, caller, params }) => monitoring.sendUserPasswordReset(deps, caller.scope, actorOf(caller), itemId(params, 'user')),
    }),
    defineRoute({
      method: 'POST',
      url: `${prefix}/users/:${itemParam('user')}/sign-out-everywhere`,
      procedure: 'signOutUserEverywhere',
      access: auth,
      params: paramsFor('user'),
      response: { 200: SignedOutSchema },
      doc: doc('signOutEverywhere', 'User', ['End every session of an account', "End every session of an end user"], {
        ...found,
        description: `Every live session ends at once: refresh tokens stop working and access tokens are refused on the next request${platform ? '' : '; the project\'s webhooks get `session.revoked` for each'}. Your own account is refused (403). Audited as \`user.signed_out\`.`,
      }),
      handler: ({ deps, caller, params }) => monitoring.signOutUserEverywhere(deps, caller.scope, actorOf(caller), itemId(params, 'user')),
    }),
    // Developers create their end users; platform accounts only sign up themselves.
    ...(platform
      ? []
      : [
          defineRoute({
            method: 'POST',
            url: `${prefix}/users`,
            procedure: 'createUser',
            access: auth,
            params: paramsFor(),
            body: CreateUserInputSchema,
            response: { 201: UserSchema },
            doc: doc('create', 'User', ['', 'Create an end user'], {
              errors: [409],
              description:
                'With a `password` (the project\'s password rules apply) or without one (the user sets one through "forgot password" or signs in with a provider). `email_verified: true` marks the address as proven; otherwise the user is mailed a verification link. 409 when the address has an account in the project. The webhooks get `user.created`; audited as `user.created`.',
            }),
            handler: ({ deps, caller, body }) => monitoring.createUser(deps, caller.scope, actorOf(caller), body),
          }),
        ]),
    defineRoute({
      method: 'GET',
      url: `${prefix}/login-attempts`,
      procedure: 'loginAttempts',
      access: auth,
      params: paramsFor(),
      query: LoginAttemptListQuerySchema,
      response: { 200: LoginAttemptPageSchema },
      doc: doc('list', 'LoginAttempts', ['Login attempts, newest first', "End users' login attempts"], { description: FILTERS.attempts }),
      handler: ({ deps, caller, query }) => monitoring.getLoginAttempts(deps, caller.scope, query),
    }),
    defineRoute({
      method: 'GET',
      url: `${prefix}/devices`,
      procedure: 'devices',
      access: auth,
      params: paramsFor(),
      query: DeviceListQuerySchema,
      response: { 200: DevicePageSchema },
      doc: doc('list', 'Devices', ['Known devices', "End users' devices"], { description: FILTERS.devices }),
      handler: ({ deps, caller, query }) => monitoring.getDevices(deps, caller.scope, query),
    }),
    defineRoute({
      method: 'PATCH',
      url: `${prefix}/devices/:${itemParam('device')}/toggle-block`,
      procedure: 'toggleDeviceBlock',
      access: auth,
      params: paramsFor('device'),
      response: { 200: DeviceSchema },
      doc: doc('toggle', 'DeviceBlock', ['Block or unblock a device', 'Block or unblock an end-user device'], found),
      handler: ({ deps, caller, params }) => monitoring.toggleDeviceBlock(deps, caller.scope, actorOf(caller), itemId(params, 'device')),
    }),
    defineRoute({
      method: 'PATCH',
      url: `${prefix}/devices/:${itemParam('device')}/toggle-trust`,
      procedure: 'toggleDeviceTrust',
      access: auth,
      params: paramsFor('device'),
      response: { 200: DeviceSchema },
      doc: doc('toggle', 'DeviceTrust', ['Trust or distrust a device', 'Trust or distrust an end-user device'], found),
      handler: ({ deps, caller, params }) => monitoring.toggleDeviceTrust(deps, caller.scope, actorOf(caller), itemId(params, 'device')),
    }),
    defineRoute({
      method: 'GET',
      url: `${prefix}/sessions`,
      procedure: 'sessions',
      access: auth,
      params: paramsFor(),
      query: SessionListQuerySchema,
      response: { 200: SessionPageSchema },
      doc: doc('list', 'Sessions', ['Live sessions', "End users' live sessions"], { description: FILTERS.sessions }),
      handler: ({ deps, caller, query }) => monitoring.getSessions(deps, caller.scope, query),
    }),
    defineRoute({
      method: 'DELETE',
      url: `${prefix}/sessions/:${itemParam('session')}`,
      procedure: 'revokeSession',
      access: auth,
      params: paramsFor('session'),
      response: { 200: MessageSchema },
      doc: doc('revoke', 'Session', ['Revoke a session', "Revoke an end user's session"], found),
      handler: ({ deps, caller, params }) => monitoring.revokeSessionById(deps, caller.scope, actorOf(caller), itemId(params, 'session')),
    }),
    // A project's users export is user-transfer's (NDJSON for a move, this CSV with format=csv).
    ...EXPORTS.filter(({ list }) => platform || list !== 'users').map(({ list, noun, query, run, summaries }) =>
      defineRoute({
        method: 'GET',
        url: `${prefix}/${list}/export`,
        access: auth,
        params: paramsFor(),
        query,
        response: { 200: CsvSchema },
        doc: doc('export', noun, summaries, {
          description: `${FILTERS[list === 'login-attempts' ? 'attempts' : list]} ${EXPORT_RULES}`,
          errors: [429],
          produces: 'text/csv',
        }),
        handler: async ({ deps, caller, query, reply }) =>
          csvAnswer(reply, `${list}-${new Date().toISOString().slice(0, 10)}`, await run(deps, caller.scope, caller.session.user, query as never)),
      }),
    ),
  ];
}

interface ExportSpec {
  list: 'users' | 'login-attempts' | 'devices' | 'sessions';
  noun: string;
  /** The list's filters, without paging. */
  query: z.ZodObject;
  run(deps: Deps, scope: MonitorScope, exporter: { id: string }, query: never): Promise<CsvExport>;
  summaries: [platform: string, project: string];
}

const EXPORTS: ExportSpec[] = [
  { list: 'users', noun: 'Users', query: withoutPaging(UserListQuerySchema), run: monitoring.exportUsers, summaries: ['Export developer accounts as CSV', 'Export end users as CSV'] },
  {
    list: 'login-attempts',
    noun: 'LoginAttempts',
    query: withoutPaging(LoginAttemptListQuerySchema),
    run: monitoring.exportLoginAttempts,
    summaries: ['Export login attempts as CSV', "Export end users' login attempts as CSV"],
  },
  { list: 'devices', noun: 'Devices', query: withoutPaging(DeviceListQuerySchema), run: monitoring.exportDevices, summaries: ['Export devices as CSV', "Export end users' devices as CSV"] },
  { list: 'sessions', noun: 'Sessions', query: withoutPaging(SessionListQuerySchema), run: monitoring.exportSessions, summaries: ['Export live sessions as CSV', "Export end users' live sessions as CSV"] },
];
