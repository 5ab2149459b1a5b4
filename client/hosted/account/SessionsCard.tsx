import { useQuery, useQueryClient } from '@tanstack/react-query';
import { SessionsPanel, type SessionSource } from '../../components/account/SessionsPanel';
import { AccountSection } from './AccountSection';
import { hostedErrorMessage } from '../api';
import { SESSIONS_KEY, useHosted } from '../HostedContext';

/** Where the account is signed in, with a way to end any other session. */
export function SessionsCard() {
  const { api } = useHosted();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: api.sessions });
  const source: SessionSource = {
    revoke: api.revokeSession,
    revokeOthers: api.revokeOtherSessions,
    reload: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
    errorMessage: hostedErrorMessage,
  };
  return (
    <SessionsPanel
      section={AccountSection}
      sessions={sessions.data?.sessions}
      loading={sessions.isPending}
      onRetry={() => void sessions.refetch()}
      source={source}
      labelSignOutByDevice
    />
  );
}
