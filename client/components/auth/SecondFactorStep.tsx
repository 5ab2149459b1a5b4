import { useState } from 'react';
import { Anchor, Button, Group, PinInput, Stack, Text, TextInput } from '@mantine/core';
import type { User } from '../../../shared/schemas/user';
import { errorMessage } from '../../lib/errors';
import { trpc } from '../../lib/trpc';

const CODE_LENGTH = 6;

/**
 * The second step of a sign-in with two factors: a 6-digit code from the authenticator app (typed or
 * pasted; a full code submits itself), or one of the recovery codes.
 */
export function SecondFactorStep({ mfaToken, onSignedIn, onCancel }: { mfaToken: string; onSignedIn: (user: User) => void; onCancel: () => void }) {
  const verify = trpc.auth.verifyMfa.useMutation();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (value = code) => {
    if (!value.trim()) {
      setError('Code is required');
      return;
    }
    setError(null);
    try {
      const session = await verify.mutateAsync({ mfa_token: mfaToken, code: value });
      onSignedIn(session.user);
    } catch (failure) {
      setError(errorMessage(failure, 'Invalid code'));
      setCode('');
    }
  };

  const switchMethod = () => {
    setUseRecovery((current) => !current);
    setCode('');
    setError(null);
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="md">
        {useRecovery ? (
          <TextInput
            label="Recovery code"
            description="One of the codes you saved when you turned on two-factor authentication. Each works once."
            placeholder="xxxxx-xxxxx"
            autoComplete="off"
            autoFocus
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={error}
          />
        ) : (
          <Stack gap={6}>
            <Text size="sm" fw={500} id="totp-label">
              Authentication code
            </Text>
            <Text size="xs" c="dimmed">
              Enter the 6-digit code from your authenticator app.
            </Text>
            <PinInput
              length={CODE_LENGTH}
              type="number"
              oneTimeCode
              autoFocus
              size="md"
              value={code}
              onChange={setCode}
              onComplete={(value) => void submit(value)}
              error={Boolean(error)}
              aria-labelledby="totp-label"
              getInputProps={(index) => ({ 'aria-label': `Digit ${index + 1} of ${CODE_LENGTH}` })}
            />
            {error && (
              <Text size="xs" c="red" role="alert">
                {error}
              </Text>
            )}
          </Stack>
        )}
        <Button type="submit" fullWidth loading={verify.isPending}>
          Verify
        </Button>
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={switchMethod}>
            {useRecovery ? 'Use your authenticator app' : 'Use a recovery code'}
          </Anchor>
          <Anchor component="button" type="button" size="sm" c="dimmed" onClick={onCancel}>
            Back to sign in
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
