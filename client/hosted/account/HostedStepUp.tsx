import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { StepUpProvider, type StepUpSource } from '../../components/account/StepUp';
import { SESSION_KEY, useHosted } from '../HostedContext';
import { passkeyFailureMessage } from '../passkey-errors';
import { useHostedT } from '../../i18n/useHostedT';

/** The end user's step-up on the hosted account page, over the hosted API. */
export function HostedStepUp({ children }: { children: ReactNode }) {
  const { api, paths } = useHosted();
  const { t } = useHostedT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const source: StepUpSource = {
    status: api.stepUpStatus,
    confirm: api.stepUp,
    passkeyOptions: api.stepUpPasskeyOptions,
    sendEmailCode: api.stepUpEmailCode,
    errorMessage: passkeyFailureMessage,
    // Signing in again is the proof; the sign-in page comes back to the account page.
    signInAgain: () => {
      void api
        .logOut()
        .catch(() => undefined)
        .finally(() => {
          queryClient.removeQueries({ queryKey: SESSION_KEY });
          const returnTo = new URLSearchParams({ return_to: paths.page('account') });
          navigate(`${paths.page('sign-in')}?${returnTo}`, { replace: true, state: { message: t('account.stepUpSignIn') } });
        });
    },
  };
  return <StepUpProvider source={source}>{children}</StepUpProvider>;
}
