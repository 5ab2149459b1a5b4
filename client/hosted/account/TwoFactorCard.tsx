import { useQueryClient } from '@tanstack/react-query';
import { TwoFactorPanel, type TwoFactorSource } from '../../components/account/TwoFactorPanel';
import { PasswordField } from '../../components/PasswordField';
import { AccountSection } from './AccountSection';
import { hostedErrorMessage } from '../api';
import { PROFILE_KEY, useHosted } from '../HostedContext';

/** Two-factor authentication with an authenticator app: set up, recovery codes, turn off. */
export function TwoFactorCard({ enabled, verified }: { enabled: boolean; verified: boolean }) {
  const { api } = useHosted();
  const queryClient = useQueryClient();
  const source: TwoFactorSource = {
    setUp: api.setUpTotp,
    confirm: api.confirmTotp,
    disable: api.disableMfa,
    regenerate: api.regenerateRecoveryCodes,
    reload: () => queryClient.invalidateQueries({ queryKey: PROFILE_KEY }),
    errorMessage: hostedErrorMessage,
  };
  return <TwoFactorPanel section={AccountSection} enabled={enabled} verified={verified} source={source} passwordInput={PasswordField} />;
}
