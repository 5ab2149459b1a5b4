import { Alert, type MantineSpacing } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useSearchParams } from 'react-router-dom';
import { SOCIAL_MESSAGES } from '../../../shared/schemas/social';
import { linkedProviderName, socialErrorMessage } from '../../lib/social';
import { useHostedT } from '../../i18n/useHostedT';

/**
 * What connecting a provider came back with: `?social_linked=github` or `?social_error=code` (only known
 * codes: text from the address is never shown). Closing it drops the parameter from the address.
 */
export function SocialReturnNotice({ mb }: { mb?: MantineSpacing }) {
  const [params, setParams] = useSearchParams();
  const { t, known } = useHostedT();
  const linked = linkedProviderName(params.get('social_linked'));
  const error = socialErrorMessage(params.get('social_error'));
  if (!linked && !error) return null;

  const dismiss = () =>
    setParams(
      (next) => {
        next.delete('social_linked');
        next.delete('social_error');
        return next;
      },
      { replace: true },
    );

  return error ? (
    <Alert mb={mb} color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} />} withCloseButton closeButtonLabel={t('common.dismiss')} onClose={dismiss}>
      {known(error)}
    </Alert>
  ) : (
    <Alert mb={mb} color="teal" variant="light" role="status" icon={<IconCircleCheck size={18} />} withCloseButton closeButtonLabel={t('common.dismiss')} onClose={dismiss} title={t('link.providerConnected', { provider: linked })}>
      {known(SOCIAL_MESSAGES.linked)}
    </Alert>
  );
}
