import { useAuth } from '../../auth/AuthProvider';
import { errorMessage } from '../../lib/errors';
import { socialStartUrl } from '../../lib/social';
import { trpc } from '../../lib/trpc';
import { SignInMethodsPanel, type SignInMethodsSource } from '../account/SignInMethodsPanel';
import { SettingsSection } from './SettingsSection';

/** The developer's connected providers: remove one, or connect another (a navigation that comes back to the settings). */
export function SignInMethodsCard() {
  const { user } = useAuth();
  const utils = trpc.useUtils();
  const list = trpc.social.identities.useQuery();
  const remove = trpc.social.removeIdentity.useMutation();
  const source: SignInMethodsSource = {
    remove: (id) => remove.mutateAsync({ id }),
    reload: () => utils.social.identities.invalidate(),
    connectUrl: (provider) => socialStartUrl('/api/v1', provider, { intent: 'link', return_to: '/settings' }),
    forgotPasswordPath: '/forgot-password',
    errorMessage,
  };
  return <SignInMethodsPanel section={SettingsSection} verified={user?.is_verified === true} methods={list.data} loading={list.isLoading} failed={list.isError} source={source} />;
}
