import { useAuth } from '../../auth/AuthProvider';
import { errorMessage } from '../../lib/errors';
import { trpc } from '../../lib/trpc';
import { TwoFactorPanel, type TwoFactorSource } from '../account/TwoFactorPanel';
import { SettingsSection } from './SettingsSection';

/** Two-factor authentication with an authenticator app: set up, recovery codes, turn off. */
export function TwoFactorCard() {
  const { user, refreshUser } = useAuth();
  const setUp = trpc.mfa.setUpTotp.useMutation();
  const confirm = trpc.mfa.confirmTotp.useMutation();
  const disable = trpc.mfa.disable.useMutation();
  const regenerate = trpc.mfa.regenerateRecoveryCodes.useMutation();
  const source: TwoFactorSource = {
    setUp: () => setUp.mutateAsync(),
    confirm: (code) => confirm.mutateAsync({ code }),
    disable: (password, code) => disable.mutateAsync({ password, code }),
    regenerate: (password) => regenerate.mutateAsync({ password }),
    reload: refreshUser,
    errorMessage,
  };
  return <TwoFactorPanel section={SettingsSection} enabled={user?.mfa_enabled === true} verified={user?.is_verified === true} source={source} />;
}
