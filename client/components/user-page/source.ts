import { useMemo } from 'react';
import type { UserDetail } from '../../../shared/schemas/user-detail';
import { trpc } from '../../lib/trpc';

/**
 * Where a user's page gets its data and sends its actions: the admin area over the platform's accounts
 * (`trpc.admin.*`) or one project's monitoring over its end users (`trpc.projects.monitor.*`). The page
 * is written once against this interface. The `use…` members are React hooks.
 */
export interface UserPageSource {
  scope: 'admin' | 'project';
  /** The caller may only look (a project's viewer): no action buttons. */
  readOnly: boolean;
  /** Where "back" goes: the list this user was opened from. */
  back: { to: string; label: string };
  useUser(userId: string): { data: UserDetail | undefined; error: unknown; isPending: boolean; refetch: () => unknown };
  useActions(userId: string): UserActions;
  /** A project's end user's organizations (absent in the admin area, whose accounts have none). */
  useOrganizations?(userId: string): { data: { organizations: { id: string; name: string; slug: string; role: string; joined_at: string }[] } | undefined };
  /** Where an organization opens, when the dashboard has a page for it. */
  organizationPath?(organizationId: string): string;
}

export interface UserActions {
  toggleActive(): Promise<unknown>;
  resetMfa(): Promise<unknown>;
  resendVerification(): Promise<unknown>;
  sendPasswordReset(): Promise<unknown>;
  signOutEverywhere(): Promise<unknown>;
  /** Lifts the failed-login throttle; only where the API offers it (the admin area). */
  unlock?: () => Promise<unknown>;
  revokeSession(sessionId: string): Promise<unknown>;
  toggleDeviceBlock(deviceId: string): Promise<unknown>;
  toggleDeviceTrust(deviceId: string): Promise<unknown>;
  deleteUser(): Promise<unknown>;
  /** Reloads the page and the lists it came from. */
  reload(): Promise<void>;
}

/** The address of a user's page, from the list it is opened from. */
export const adminUserPath = (userId: string) => `/admin/users/${encodeURIComponent(userId)}`;
export const projectUserPath = (projectId: string, userId: string) => `/monitoring/users/${encodeURIComponent(userId)}?project=${encodeURIComponent(projectId)}`;

const ADMIN_USER_SOURCE: UserPageSource = {
  scope: 'admin',
  readOnly: false,
  back: { to: '/admin?tab=users', label: 'Users' },
  useUser: (userId) => trpc.admin.user.useQuery({ id: userId }, { retry: false }),
  useActions: (userId) => {
    const utils = trpc.useUtils();
    const toggle = trpc.admin.toggleUserActive.useMutation();
    const resetMfa = trpc.admin.resetUserMfa.useMutation();
    const resend = trpc.admin.resendUserVerification.useMutation();
    const reset = trpc.admin.sendUserPasswordReset.useMutation();
    const signOut = trpc.admin.signOutUserEverywhere.useMutation();
    const unlock = trpc.admin.unlockUser.useMutation();
    const revoke = trpc.admin.revokeSession.useMutation();
    const block = trpc.admin.toggleDeviceBlock.useMutation();
    const trust = trpc.admin.toggleDeviceTrust.useMutation();
    const remove = trpc.admin.deleteUser.useMutation();
    return {
      toggleActive: () => toggle.mutateAsync({ id: userId }),
      resetMfa: () => resetMfa.mutateAsync({ id: userId }),
      resendVerification: () => resend.mutateAsync({ id: userId }),
      sendPasswordReset: () => reset.mutateAsync({ id: userId }),
      signOutEverywhere: () => signOut.mutateAsync({ id: userId }),
      unlock: () => unlock.mutateAsync({ id: userId }),
      revokeSession: (id) => revoke.mutateAsync({ id }),
      toggleDeviceBlock: (id) => block.mutateAsync({ id }),
      toggleDeviceTrust: (id) => trust.mutateAsync({ id }),
      deleteUser: () => remove.mutateAsync({ id: userId }),
      reload: () => utils.admin.invalidate(),
    };
  },
};

export function useAdminUserSource(): UserPageSource {
  return ADMIN_USER_SOURCE;
}

export function useProjectUserSource(projectId: string, readOnly: boolean): UserPageSource {
  return useMemo<UserPageSource>(
    () => ({
      scope: 'project',
      readOnly,
      back: { to: `/monitoring?project=${encodeURIComponent(projectId)}&tab=users`, label: 'Users' },
      useUser: (userId) => trpc.projects.monitor.user.useQuery({ id: projectId, user_id: userId }, { retry: false }),
      useOrganizations: (userId) => trpc.organizations.ofUser.useQuery({ id: projectId, user_id: userId }, { retry: false }),
      useActions: (userId) => {
        const utils = trpc.useUtils();
        const toggle = trpc.projects.monitor.toggleUserActive.useMutation();
        const resetMfa = trpc.projects.monitor.resetUserMfa.useMutation();
        const resend = trpc.projects.monitor.resendUserVerification.useMutation();
        const reset = trpc.projects.monitor.sendUserPasswordReset.useMutation();
        const signOut = trpc.projects.monitor.signOutUserEverywhere.useMutation();
        const revoke = trpc.projects.monitor.revokeSession.useMutation();
        const block = trpc.projects.monitor.toggleDeviceBlock.useMutation();
        const trust = trpc.projects.monitor.toggleDeviceTrust.useMutation();
        const remove = trpc.projects.monitor.deleteUser.useMutation();
        const user = { id: projectId, user_id: userId };
        return {
          toggleActive: () => toggle.mutateAsync(user),
          resetMfa: () => resetMfa.mutateAsync(user),
          resendVerification: () => resend.mutateAsync(user),
          sendPasswordReset: () => reset.mutateAsync(user),
          signOutEverywhere: () => signOut.mutateAsync(user),
          revokeSession: (id) => revoke.mutateAsync({ id: projectId, session_id: id }),
          toggleDeviceBlock: (id) => block.mutateAsync({ id: projectId, device_id: id }),
          toggleDeviceTrust: (id) => trust.mutateAsync({ id: projectId, device_id: id }),
          deleteUser: () => remove.mutateAsync(user),
          reload: async () => {
            await Promise.all([utils.projects.monitor.invalidate(), utils.projects.auditLog.invalidate({ id: projectId }), utils.projects.list.invalidate()]);
          },
        };
      },
    }),
    [projectId, readOnly],
  );
}
