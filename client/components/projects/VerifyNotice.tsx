import { useRef } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import { MESSAGES } from '../../../shared/messages';
import { useAuth } from '../../auth/AuthProvider';
import { CaptchaField, type CaptchaHandle } from '../CaptchaField';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { PROJECT_TEXTS, TOASTS } from '../../messages';

/** Shown to a developer whose e-mail is not verified yet: the server refuses to create projects and keys. */
export function VerifyNotice({ what = 'projects' }: { what?: 'projects' | 'API keys' }) {
  const { user, refreshUser } = useAuth();
  const resend = trpc.auth.resendVerification.useMutation();
  const captcha = useRef<CaptchaHandle>(null);
  if (!user || user.is_verified) return null;

  const onResend = async () => {
    try {
      await resend.mutateAsync({ email: user.email, captcha_token: (await captcha.current?.token()) ?? '' });
      notify.success(MESSAGES.verificationSent);
    } catch (error) {
      notify.error(errorMessage(error, TOASTS.resendFailed));
    }
  };

  return (
    <Alert
      variant="light"
      color="yellow"
      radius="md"
      mb="lg"
      icon={<IconMailExclamation size={20} />}
      title={`Verify your e-mail to create ${what}`}
    >
      <Text size="sm">
        {what === 'projects' ? PROJECT_TEXTS.verifyToCreate : 'Creating API keys needs a verified e-mail address.'} Open the link we sent to <b>{user.email}</b>, then come back here.
      </Text>
      <CaptchaField ref={captcha} />
      <Group gap="xs" mt="sm">
        <Button size="xs" variant="light" color="yellow" onClick={() => void onResend()} loading={resend.isPending}>
          Resend verification email
        </Button>
        <Button size="xs" variant="subtle" color="gray" onClick={() => void refreshUser()}>
          I have verified it
        </Button>
      </Group>
    </Alert>
  );
}
