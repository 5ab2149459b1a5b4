import { errorMessage } from '../../lib/errors';
import { trpc } from '../../lib/trpc';
import { SessionsPanel, type SessionSource } from '../account/SessionsPanel';
import { SettingsSection } from './SettingsSection';

/** Where the account is signed in, with a way to end any other session. */
export function YourSessionsCard() {
  const utils = trpc.useUtils();
  const sessions = trpc.auth.listSessions.useQuery(undefined, { refetchOnWindowFocus: false });
  const revoke = trpc.auth.revokeSession.useMutation();
  const revokeOthers = trpc.auth.revokeOtherSessions.useMutation();
  const source: SessionSource = {
    revoke: (id) => revoke.mutateAsync({ id }),
    revokeOthers: () => revokeOthers.mutateAsync(),
    reload: () => utils.auth.listSessions.invalidate(),
    errorMessage,
  };
  return (
    <SessionsPanel
      section={SettingsSection}
      // A failed refetch shows the error, not the sessions it had before.
      sessions={sessions.isError ? undefined : sessions.data?.sessions}
      loading={sessions.isPending}
      onRetry={() => void sessions.refetch()}
      source={source}
    />
  );
}
