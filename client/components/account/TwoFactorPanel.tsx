import { useState, type ComponentType } from 'react';
import { Badge, Box, Button, Group, PasswordInput, Stack, Text, TextInput, type PasswordInputProps } from '@mantine/core';
import { QRCodeSVG } from 'qrcode.react';
import type { RecoveryCodes, TotpSetup } from '../../../shared/schemas/mfa';
import { notify } from '../../lib/notify';
import { StepUpCancelled } from '../../lib/step-up';
import { CopyField } from '../CopyField';
import { RecoveryCodesPanel } from '../settings/RecoveryCodesPanel';
import type { SectionComponent } from '../settings/SettingsSection';
import { useStepUp } from './StepUp';
import { VerifyFirstNotice } from './VerifyFirstNotice';
import { useHostedT } from '../../i18n/useHostedT';

/** How the two-factor card changes the account: the platform's tRPC procedures or a project's hosted API. */
export interface TwoFactorSource {
  setUp(): Promise<TotpSetup>;
  confirm(code: string): Promise<RecoveryCodes>;
  disable(password: string, code: string): Promise<unknown>;
  regenerate(password: string): Promise<RecoveryCodes>;
  /** Reloads the signed-in user, whose mfa_enabled the card shows; awaited after turning it on or off. */
  reload(): Promise<unknown>;
  errorMessage(failure: unknown, fallback: string): string;
}

interface TwoFactorPanelProps {
  section: SectionComponent;
  enabled: boolean;
  /** Whether the account's address is verified: two factors cannot be turned on before. */
  verified: boolean;
  source: TwoFactorSource;
  /** The current-password input: the hosted pages use PasswordField, whose show/hide toggle is labelled. */
  passwordInput?: ComponentType<PasswordInputProps>;
}

type Step = { kind: 'idle' } | { kind: 'enrolling'; setup: TotpSetup } | { kind: 'codes'; codes: string[] } | { kind: 'disabling' } | { kind: 'regenerating' };

/** Two-factor authentication with an authenticator app: set up, recovery codes, turn off. */
export function TwoFactorPanel({ section: Section, enabled, verified, source, passwordInput: Password = PasswordInput }: TwoFactorPanelProps) {
  const stepUp = useStepUp();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const { t, known } = useHostedT();

  const goTo = (next: Step) => {
    setStep(next);
    setCode('');
    setPassword('');
    setError(null);
  };
  const attempt = async (action: () => Promise<void>) => {
    setError(null);
    setPending(true);
    try {
      await action();
    } catch (failure) {
      if (!(failure instanceof StepUpCancelled)) setError(known(source.errorMessage(failure, t('common.somethingWrong'))));
    } finally {
      setPending(false);
    }
  };

  return (
    <Section title={t('signIn.twoFactorTitle')} description={t('twoFactor.help')}>
      {step.kind === 'codes' ? (
        <RecoveryCodesPanel codes={step.codes} onDone={() => goTo({ kind: 'idle' })} />
      ) : step.kind === 'enrolling' ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void attempt(async () => {
              const { recovery_codes } = await stepUp.guard(() => source.confirm(code));
              await source.reload();
              notify.success(t('twoFactor.on'));
              goTo({ kind: 'codes', codes: recovery_codes });
            });
          }}
        >
          <Stack gap="md">
            <Text size="sm">{t('twoFactor.scan')}</Text>
            <Group align="flex-start" gap="lg">
              <Box p="sm" bg="white" style={{ borderRadius: 8, lineHeight: 0 }} role="img" aria-label={t('twoFactor.qr')}>
                <QRCodeSVG value={step.setup.otpauth_url} size={168} />
              </Box>
              <Box style={{ flex: 1, minWidth: 220 }}>
                <CopyField label={t('twoFactor.setupKey')} value={step.setup.secret} copyLabel={t('twoFactor.copySetupKey')} wrap />
              </Box>
            </Group>
            <TextInput
              label={t('twoFactor.enterCode')}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              maw={260}
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              error={error}
            />
            <Group gap="sm">
              <Button type="submit" loading={pending}>
                {t('twoFactor.turnOn')}
              </Button>
              <Button variant="default" onClick={() => goTo({ kind: 'idle' })}>
                {t('common.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : step.kind === 'disabling' || step.kind === 'regenerating' ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void attempt(async () => {
              if (step.kind === 'disabling') {
                await source.disable(password, code);
                await source.reload();
                notify.success(t('twoFactor.off'));
                goTo({ kind: 'idle' });
              } else {
                const { recovery_codes } = await source.regenerate(password);
                goTo({ kind: 'codes', codes: recovery_codes });
              }
            });
          }}
        >
          <Stack gap="md" maw={360}>
            <Password label={t('common.currentPassword')} autoComplete="current-password" value={password} onChange={(event) => setPassword(event.currentTarget.value)} />
            {step.kind === 'disabling' && (
              <TextInput
                label={t('twoFactor.codeOrRecovery')}
                autoComplete="one-time-code"
                value={code}
                onChange={(event) => setCode(event.currentTarget.value)}
              />
            )}
            {error && (
              <Text size="sm" c="red" role="alert">
                {error}
              </Text>
            )}
            <Group gap="sm">
              <Button type="submit" color={step.kind === 'disabling' ? 'red' : undefined} loading={pending}>
                {step.kind === 'disabling' ? t('twoFactor.turnOff') : t('twoFactor.showNewCodes')}
              </Button>
              <Button variant="default" onClick={() => goTo({ kind: 'idle' })}>
                {t('common.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Group justify="space-between" align="center" gap="md">
          <Group gap="sm">
            <Text fw={600}>{t('twoFactor.app')}</Text>
            <Badge color={enabled ? 'teal' : 'gray'} variant="light">
              {enabled ? t('twoFactor.badgeOn') : t('twoFactor.badgeOff')}
            </Badge>
          </Group>
          {enabled ? (
            <Group gap="sm">
              <Button variant="default" onClick={() => goTo({ kind: 'regenerating' })}>
                {t('twoFactor.newCodes')}
              </Button>
              <Button variant="light" color="red" onClick={() => goTo({ kind: 'disabling' })}>
                {t('twoFactor.turnOff')}
              </Button>
            </Group>
          ) : verified ? (
            <Button loading={pending} onClick={() => void attempt(async () => goTo({ kind: 'enrolling', setup: await stepUp.guard(source.setUp) }))}>
              {t('twoFactor.setUp')}
            </Button>
          ) : null}
        </Group>
      )}
      {step.kind === 'idle' && !enabled && !verified && (
        <Stack mt="md">
          <VerifyFirstNotice what={t('signIn.twoFactorTitle')} />
        </Stack>
      )}
      {step.kind === 'idle' && error && (
        <Text size="sm" c="red" role="alert" mt="sm">
          {error}
        </Text>
      )}
    </Section>
  );
}
