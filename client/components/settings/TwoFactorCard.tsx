import { useState } from 'react';
import { Badge, Box, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { QRCodeSVG } from 'qrcode.react';
import type { TotpSetup } from '../../../shared/schemas/mfa';
import { useAuth } from '../../auth/AuthProvider';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { CopyField } from '../CopyField';
import { SettingsSection } from './SettingsSection';
import { RecoveryCodesPanel } from './RecoveryCodesPanel';

type Step = { kind: 'idle' } | { kind: 'enrolling'; setup: TotpSetup } | { kind: 'codes'; codes: string[] } | { kind: 'disabling' } | { kind: 'regenerating' };

/** Two-factor authentication with an authenticator app: set up, recovery codes, turn off. */
export function TwoFactorCard() {
  const { user, refreshUser } = useAuth();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const setUp = trpc.mfa.setUpTotp.useMutation();
  const confirm = trpc.mfa.confirmTotp.useMutation();
  const disable = trpc.mfa.disable.useMutation();
  const regenerate = trpc.mfa.regenerateRecoveryCodes.useMutation();
  const enabled = user?.mfa_enabled === true;

  const goTo = (next: Step) => {
    setStep(next);
    setCode('');
    setPassword('');
    setError(null);
  };
  const attempt = async (action: () => Promise<void>) => {
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(errorMessage(failure, 'Something went wrong'));
    }
  };

  return (
    <SettingsSection title="Two-factor authentication" description="A code from an authenticator app after your password, so a stolen password alone cannot sign in.">
      {step.kind === 'codes' ? (
        <RecoveryCodesPanel codes={step.codes} onDone={() => goTo({ kind: 'idle' })} />
      ) : step.kind === 'enrolling' ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void attempt(async () => {
              const { recovery_codes } = await confirm.mutateAsync({ code });
              await refreshUser();
              notify.success('Two-factor authentication is on');
              goTo({ kind: 'codes', codes: recovery_codes });
            });
          }}
        >
          <Stack gap="md">
            <Text size="sm">1. Scan this QR code with an authenticator app (1Password, Google Authenticator, Authy…), or type the key.</Text>
            <Group align="flex-start" gap="lg">
              <Box p="sm" bg="white" style={{ borderRadius: 8, lineHeight: 0 }} role="img" aria-label="QR code for your authenticator app">
                <QRCodeSVG value={step.setup.otpauth_url} size={168} />
              </Box>
              <Box style={{ flex: 1, minWidth: 220 }}>
                <CopyField label="Setup key" value={step.setup.secret} copyLabel="Copy setup key" wrap />
              </Box>
            </Group>
            <TextInput
              label="2. Enter the code it shows"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              maw={260}
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              error={error}
            />
            <Group gap="sm">
              <Button type="submit" loading={confirm.isPending}>
                Turn on
              </Button>
              <Button variant="default" onClick={() => goTo({ kind: 'idle' })}>
                Cancel
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
                await disable.mutateAsync({ password, code });
                await refreshUser();
                notify.success('Two-factor authentication is off');
                goTo({ kind: 'idle' });
              } else {
                const { recovery_codes } = await regenerate.mutateAsync({ password });
                goTo({ kind: 'codes', codes: recovery_codes });
              }
            });
          }}
        >
          <Stack gap="md" maw={360}>
            <PasswordInput label="Current password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.currentTarget.value)} />
            {step.kind === 'disabling' && (
              <TextInput
                label="Code from your authenticator app, or a recovery code"
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
              <Button type="submit" color={step.kind === 'disabling' ? 'red' : undefined} loading={disable.isPending || regenerate.isPending}>
                {step.kind === 'disabling' ? 'Turn off' : 'Show new codes'}
              </Button>
              <Button variant="default" onClick={() => goTo({ kind: 'idle' })}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Group justify="space-between" align="center" gap="md">
          <Group gap="sm">
            <Text fw={600}>Authenticator app</Text>
            <Badge color={enabled ? 'teal' : 'gray'} variant="light">
              {enabled ? 'On' : 'Off'}
            </Badge>
          </Group>
          {enabled ? (
            <Group gap="sm">
              <Button variant="default" onClick={() => goTo({ kind: 'regenerating' })}>
                New recovery codes
              </Button>
              <Button variant="light" color="red" onClick={() => goTo({ kind: 'disabling' })}>
                Turn off
              </Button>
            </Group>
          ) : (
            <Button
              loading={setUp.isPending}
              onClick={() =>
                void attempt(async () => {
                  goTo({ kind: 'enrolling', setup: await setUp.mutateAsync() });
                })
              }
            >
              Set up
            </Button>
          )}
        </Group>
      )}
      {step.kind === 'idle' && error && (
        <Text size="sm" c="red" role="alert" mt="sm">
          {error}
        </Text>
      )}
    </SettingsSection>
  );
}
