import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import type { User } from '../../../shared/schemas/user';
import { getDeviceFingerprint } from '../../lib/fingerprint';
import { notify } from '../../lib/notify';
import { answerWithPasskey, passkeyErrorMessage, PasskeyCancelled, passkeysSupported } from '../../lib/passkeys';
import { trpc } from '../../lib/trpc';

/** "Sign in with a passkey": the browser offers the passkeys it holds for this site; one counts as both factors. */
export function PasskeySignInButton({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  const options = trpc.passkeys.loginOptions.useMutation();
  const logIn = trpc.passkeys.logIn.useMutation();
  const [pending, setPending] = useState(false);
  if (!passkeysSupported()) return null;

  const signIn = async () => {
    setPending(true);
    try {
      const response = await answerWithPasskey(await options.mutateAsync({}));
      const session = await logIn.mutateAsync({ response, device_fingerprint: await getDeviceFingerprint() });
      onSignedIn(session.user);
    } catch (failure) {
      if (failure instanceof PasskeyCancelled) notify.info(failure.message);
      else notify.error(passkeyErrorMessage(failure, 'Passkey sign-in failed'));
      setPending(false);
    }
  };

  return (
    <Button variant="default" fullWidth leftSection={<IconFingerprint size={18} />} loading={pending} onClick={() => void signIn()}>
      Sign in with a passkey
    </Button>
  );
}
