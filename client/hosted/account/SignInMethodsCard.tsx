import { useQuery, useQueryClient } from '@tanstack/react-query';
import { SignInMethodsPanel, type SignInMethodsSource } from '../../components/account/SignInMethodsPanel';
import { hostedErrorMessage } from '../api';
import { IDENTITIES_KEY, useHosted } from '../HostedContext';
import { AccountSection } from './AccountSection';

/** The end user's connected providers: remove one, or connect another (a navigation that comes back to the account page). */
export function SignInMethodsCard({ verified }: { verified: boolean }) {
  const { api, paths } = useHosted();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: IDENTITIES_KEY, queryFn: api.identities });
  const source: SignInMethodsSource = {
    remove: api.removeIdentity,
    reload: () => queryClient.invalidateQueries({ queryKey: IDENTITIES_KEY }),
    connectUrl: (provider) => paths.socialStart(provider, { intent: 'link', return_to: paths.page('account') }),
    forgotPasswordPath: paths.page('forgot-password'),
    errorMessage: hostedErrorMessage,
  };
  return <SignInMethodsPanel section={AccountSection} verified={verified} methods={list.data} loading={list.isPending} failed={list.isError} source={source} />;
}
