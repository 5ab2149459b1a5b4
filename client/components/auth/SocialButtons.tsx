import { Button, Divider, Stack, Text } from '@mantine/core';
import type { SignInProvider } from '../../../shared/schemas/social';
import type { CaptchaStatus } from '../CaptchaField';
import { ProviderIcon } from './ProviderIcon';
import { useHostedT } from '../../i18n/useHostedT';

interface SocialButtonsProps {
  /** The providers the server offers; none → nothing at all (no divider either). */
  providers: SignInProvider[] | undefined;
  /** The divider's text above the buttons; null when the page already has one above them. */
  label: string | null;
  /** The provider whose sign-in is starting (its button spins, the others wait). */
  pending: string | null;
  onSelect(provider: SignInProvider): void;
  /** The page's captcha: the buttons are held back until it can give a token (the start URL carries it). */
  captcha?: CaptchaStatus;
}

/** "Continue with GitHub", … : one button per provider the server offers. */
export function SocialButtons({ providers = [], label, pending, onSelect, captcha = 'ready' }: SocialButtonsProps) {
  const { t } = useHostedT();
  if (providers.length === 0) return null;
  return (
    <>
      {label && <Divider label={label} labelPosition="center" />}
      <Stack gap="xs">
        {providers.map((provider) => (
          <Button
            key={provider.id}
            variant="default"
            fullWidth
            leftSection={<ProviderIcon provider={provider.id} />}
            loading={pending === provider.id}
            disabled={captcha !== 'ready' || (pending !== null && pending !== provider.id)}
            onClick={() => onSelect(provider)}
          >
            {t('common.continueWith', { provider: provider.name })}
          </Button>
        ))}
        {captcha === 'unsolved' && (
          <Text size="xs" c="dimmed" ta="center">
            {t('common.captchaFirst')}
          </Text>
        )}
      </Stack>
    </>
  );
}
