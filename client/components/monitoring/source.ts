import { useMemo } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import type { AdminStats, Device, LoginAttempt, MonitoredUser, Session } from '../../../shared/schemas/admin';
import type { MailDelivery, MailDeliveryStatus } from '../../../shared/schemas/mail';
import type { AuditEntry } from '../../../shared/schemas/audit';
import { trpc } from '../../lib/trpc';
import { MONITOR_TEXTS } from '../../messages';
import { adminUserPath, projectUserPath } from '../user-page/source';

/**
 * Where the monitoring views get their data: the platform's accounts (the admin area, `trpc.admin.*`) or
 * one project's end users (`trpc.projects.monitor.*`). The views are written once against this interface.
 * The `use…` members are React hooks: call them from components, unconditionally.
 */
export interface MonitorSource {
  /** Stable name of the scope ('admin' or 'project:<id>'); views keyed by it start over when it changes. */
  scope: string;
  /** Toast for a failed load when the server gives no detail. */
  loadFailedText: string;
  /** The caller may only look (a project's viewer): the lists show no action buttons. */
  readOnly: boolean;
  /** The project being monitored (its end users' organizations have a tab); absent in the admin area. */
  projectId?: string;
  useStats(): MonitorQuery<AdminStats>;
  useUsers(q: PageInput & UserFilters): MonitorQuery<UserPage>;
  useLoginAttempts(q: PageInput & AttemptFilters): MonitorQuery<AttemptPage>;
  useDevices(q: PageInput & DeviceFilters): MonitorQuery<DevicePage>;
  useSessions(q: PageInput & SearchFilter): MonitorQuery<SessionPage>;
  useAuditLog(q: PageInput & AuditFilters): MonitorQuery<AuditPage>;
  useMail(q: PageInput & MailFilters): MonitorQuery<MailPage>;
  useActions(): MonitorActions;
  /** The address of a user's page (Admin → Users → the account, or the project's end user). */
  userPath(userId: string): string;
  /** The REST address of a list's CSV export with these filters (cookie-authenticated, so a plain link downloads it). */
  exportUrl(list: ExportList, filters: ListFilters): string;
}

export interface PageInput {
  page: number;
  per_page: number;
}

/** A list's filters as the view holds them: unset or empty values are left out of the query. */
export type ListFilters = Record<string, string | undefined>;
/** Days bounding a list, as ISO dates or times: `from` inclusive, `to` inclusive (the end of its day). */
export interface DateRange {
  from?: string;
  to?: string;
}
export type SearchFilter = DateRange & { q?: string };
export type UserFilters = SearchFilter & { status?: 'active' | 'inactive' };
/** `vpn` 'true': through a VPN or proxy, 'false': neither; `country` a two-letter code. */
export type AttemptFilters = SearchFilter & { outcome?: 'success' | 'failure'; vpn?: 'true' | 'false'; country?: string };
export type DeviceFilters = SearchFilter & { status?: 'blocked' | 'trusted' };
/** `action` is one action (`user.deactivated`) or a family of them (`user.`); `actor` part of the actor's e-mail. */
export type AuditFilters = DateRange & {
  action?: string;
  actor?: string;
};

export type MailFilters = { status?: MailDeliveryStatus };

export type ExportList = 'users' | 'login-attempts' | 'devices' | 'sessions' | 'audit-log';

interface Paged {
  total: number;
  page: number;
  per_page: number;
}
export type UserPage = Paged & { users: MonitoredUser[] };
export type AttemptPage = Paged & { attempts: LoginAttempt[] };
export type DevicePage = Paged & { devices: Device[] };
export type SessionPage = Paged & { sessions: Session[] };
export type AuditPage = Paged & { entries: AuditEntry[] };
export type MailPage = Paged & { deliveries: MailDelivery[] };

/** The part of a React Query result the views read. */
export interface MonitorQuery<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface MonitorActions {
  toggleUserActive(id: string): Promise<unknown>;
  /** Lifts the failed-login throttle; only where the API offers it. */
  unlockUser?: (id: string) => Promise<unknown>;
  /** Removes the user's second factors and passkeys (the user is mailed). */
  resetUserMfa(id: string): Promise<unknown>;
  toggleDeviceBlock(id: string): Promise<unknown>;
  toggleDeviceTrust(id: string): Promise<unknown>;
  revokeSession(id: string): Promise<unknown>;
  /** Queues a copy of a sent or failed mail. */
  resendMail(id: string): Promise<unknown>;
  /** Creates a user (a project's end user; the admin area has none: developers sign up themselves). Answers the new user. */
  createUser?: (input: CreateUserFields) => Promise<{ id: string }>;
  /** Reloads every view of this scope (after each action). */
  reload(): Promise<void>;
}

export interface CreateUserFields {
  email: string;
  password?: string;
  first_name?: string;
  last_name?: string;
  email_verified: boolean;
}

/** Paging keeps the previous page on screen while the next one loads. */
const listOptions = { placeholderData: keepPreviousData } as const;

/** The query string of an export: the filters that are set. */
export function exportQuery(filters: ListFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const query = params.toString();
  return query ? `?${query}` : '';
}

const ADMIN_SOURCE: MonitorSource = {
  scope: 'admin',
  loadFailedText: MONITOR_TEXTS.adminLoadFailed,
  readOnly: false,
  useStats: () => trpc.admin.stats.useQuery(),
  useUsers: (q) => trpc.admin.users.useQuery(q, listOptions),
  useLoginAttempts: (q) => trpc.admin.loginAttempts.useQuery(q, listOptions),
  useDevices: (q) => trpc.admin.devices.useQuery(q, listOptions),
  useSessions: (q) => trpc.admin.sessions.useQuery(q, listOptions),
  useAuditLog: (q) => trpc.admin.auditLog.useQuery(q, listOptions),
  useMail: (q) => trpc.admin.mail.useQuery(q, listOptions),
  exportUrl: (list, filters) => `/api/v1/admin/${list}/export${exportQuery(filters)}`,
  userPath: adminUserPath,
  useActions: () => {
    const utils = trpc.useUtils();
    const toggleUser = trpc.admin.toggleUserActive.useMutation();
    const unlock = trpc.admin.unlockUser.useMutation();
    const resetMfa = trpc.admin.resetUserMfa.useMutation();
    const block = trpc.admin.toggleDeviceBlock.useMutation();
    const trust = trpc.admin.toggleDeviceTrust.useMutation();
    const revoke = trpc.admin.revokeSession.useMutation();
    const resend = trpc.admin.resendMail.useMutation();
    return {
      toggleUserActive: (id) => toggleUser.mutateAsync({ id }),
      unlockUser: (id) => unlock.mutateAsync({ id }),
      resetUserMfa: (id) => resetMfa.mutateAsync({ id }),
      toggleDeviceBlock: (id) => block.mutateAsync({ id }),
      toggleDeviceTrust: (id) => trust.mutateAsync({ id }),
      revokeSession: (id) => revoke.mutateAsync({ id }),
      resendMail: (id) => resend.mutateAsync({ id }),
      reload: () => utils.admin.invalidate(),
    };
  },
};

/** The platform's own accounts (admins only; the server refuses everyone else). */
export function useAdminSource(): MonitorSource {
  return ADMIN_SOURCE;
}

/** One of the signed-in developer's projects: its end users, their sign-ins, devices and sessions. */
export function useProjectSource(projectId: string, readOnly = false): MonitorSource {
  return useMemo<MonitorSource>(
    () => ({
      scope: `project:${projectId}`,
      projectId,
      loadFailedText: MONITOR_TEXTS.monitoringLoadFailed,
      readOnly,
      useStats: () => trpc.projects.monitor.stats.useQuery({ id: projectId }),
      useUsers: (q) => trpc.projects.monitor.users.useQuery({ id: projectId, ...q }, listOptions),
      useLoginAttempts: (q) => trpc.projects.monitor.loginAttempts.useQuery({ id: projectId, ...q }, listOptions),
      useDevices: (q) => trpc.projects.monitor.devices.useQuery({ id: projectId, ...q }, listOptions),
      useSessions: (q) => trpc.projects.monitor.sessions.useQuery({ id: projectId, ...q }, listOptions),
      useAuditLog: (q) => trpc.projects.auditLog.useQuery({ id: projectId, ...q }, listOptions),
      useMail: (q) => trpc.projects.mail.useQuery({ id: projectId, ...q }, listOptions),
      // A project's users export is NDJSON (a move) unless asked for the CSV of the list.
      exportUrl: (list, filters) => `/api/v1/projects/${encodeURIComponent(projectId)}/${list}/export${exportQuery(list === 'users' ? { ...filters, format: 'csv' } : filters)}`,
      userPath: (userId) => projectUserPath(projectId, userId),
      useActions: () => {
        const utils = trpc.useUtils();
        const toggleUser = trpc.projects.monitor.toggleUserActive.useMutation();
        const resetMfa = trpc.projects.monitor.resetUserMfa.useMutation();
        const block = trpc.projects.monitor.toggleDeviceBlock.useMutation();
        const trust = trpc.projects.monitor.toggleDeviceTrust.useMutation();
        const revoke = trpc.projects.monitor.revokeSession.useMutation();
        const resend = trpc.projects.resendMail.useMutation();
        const create = trpc.projects.monitor.createUser.useMutation();
        return {
          createUser: (input) => create.mutateAsync({ id: projectId, ...input }),
          toggleUserActive: (id) => toggleUser.mutateAsync({ id: projectId, user_id: id }),
          resetUserMfa: (id) => resetMfa.mutateAsync({ id: projectId, user_id: id }),
          toggleDeviceBlock: (id) => block.mutateAsync({ id: projectId, device_id: id }),
          toggleDeviceTrust: (id) => trust.mutateAsync({ id: projectId, device_id: id }),
          revokeSession: (id) => revoke.mutateAsync({ id: projectId, session_id: id }),
          resendMail: (id) => resend.mutateAsync({ id: projectId, mail_id: id }),
          // The project's counters (users, logins) on other screens may change too.
          reload: async () => {
            await Promise.all([
              utils.projects.monitor.invalidate(),
              utils.projects.auditLog.invalidate({ id: projectId }),
              utils.projects.mail.invalidate({ id: projectId }),
              utils.projects.list.invalidate(),
              utils.projects.get.invalidate({ id: projectId }),
            ]);
          },
        };
      },
    }),
    [projectId, readOnly],
  );
}
