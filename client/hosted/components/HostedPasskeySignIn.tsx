import { useState, type ReactNode } from 'react';
import { Button } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import { getDeviceFingerprint } from '../../lib/fingerprint';
import { notify } from '../../lib/notify';
import { answerWithPasskey, PasskeyCancelled, passkeysSupported } from '../../lib/passkeys';
import { passkeyFailureMessage } from '../passkey-errors';
import { useHosted } from '../HostedContext';
import { useHostedT } from '../../i18n/useHostedT';

/** "Sign in with a passkey": the browser offers the passkeys it holds for this site; one counts as both factors. */
export function HostedPasskeySignIn({ onSignedIn, onError, children }: { onSignedIn: () => void; onError: (message: string | null) => void; children?: ReactNode }) {
  const { api } = useHosted();
  const [pending, setPending] = useState(false);
  const { t } = useHostedT();
  if (!passkeysSupported()) return null;

  const signIn = async () => {
    setPending(true);
    onError(null);
    try {
      const response = await answerWithPasskey(await api.passkeyLoginOptions());
      await api.passkeyLogIn({ response, device_fingerprint: await getDeviceFingerprint() });
      onSignedIn();
    } catch (failure) {
      if (failure instanceof PasskeyCancelled) notify.info(failure.message);
      else onError(passkeyFailureMessage(failure, t('signIn.passkeyFailed')));
      setPending(false);
    }
  };

  return (
    <>
      {children}
      <Button variant="default" fullWidth leftSection={<IconFingerprint size={18} />} loading={pending} onClick={() => void signIn()}>
        {t('signIn.passkey')}
      </Button>
    </>
  );
}
