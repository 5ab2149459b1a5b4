import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { socialErrorMessage } from '../../lib/social';

/** Why a sign-in with a provider came back without a session (`?social_error=`); nothing for an unknown code. */
export function SocialErrorAlert({ code }: { code: string | null }) {
  const message = socialErrorMessage(code);
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
      {message}
    </Alert>
  );
}
