import { Alert } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import { useHostedT } from '../../i18n/useHostedT';

/**
 * In place of a button that would add a way into an account whose address is not verified yet: the
 * server refuses it (403), so that whoever typed someone else's address cannot keep a way in.
 */
export function VerifyFirstNotice({ what }: { what: string }) {
  const { t } = useHostedT();
  return (
    <Alert variant="light" color="yellow" icon={<IconMailExclamation size={18} />} title={t('msg.verifyEmailFirst')}>
      {t('verifyFirst.text', { what })}
    </Alert>
  );
}
