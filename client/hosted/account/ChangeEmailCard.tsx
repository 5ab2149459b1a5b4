import { useState } from 'react';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { IconMailForward } from '@tabler/icons-react';
import { ChangeEmailFormSchema, ChangeEmailWithoutPasswordFormSchema, resolver } from '../../forms';
import { StepUpCancelled } from '../../lib/step-up';
import { useStepUp } from '../../components/account/StepUp';
import { PasswordField } from '../../components/PasswordField';
import { ACCOUNT_TEXTS } from '../../messages';
import { hostedErrorMessage } from '../api';
import { FormAlert } from '../components/FormAlert';
import { IDENTITIES_KEY, useHosted } from '../HostedContext';
import { AccountSection } from './AccountSection';

/**
 * A new e-mail address, with the password (an account without one proves who it is in the step-up
 * dialog instead); the change is made by the link mailed to the new address (ConfirmEmailChangePage).
 */
export function ChangeEmailCard({ currentEmail }: { currentEmail: string }) {
  const { api } = useHosted();
  const stepUp = useStepUp();
  const methods = useQuery({ queryKey: IDENTITIES_KEY, queryFn: api.identities });
  const hasPassword = methods.data?.has_password ?? true;
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { newEmail: '', password: '' },
    validate: (values) => resolver(hasPassword ? ChangeEmailFormSchema : ChangeEmailWithoutPasswordFormSchema)(values),
  });

  const onSubmit = form.onSubmit(async (values) => {
    setError(null);
    setSaving(true);
    try {
      const newEmail = values.newEmail.trim();
      await stepUp.guard(() => api.changeEmail(newEmail, hasPassword ? values.password : undefined));
      form.reset();
      setSentTo(newEmail);
    } catch (failure) {
      if (!(failure instanceof StepUpCancelled)) setError(hostedErrorMessage(failure, ACCOUNT_TEXTS.changeEmailFailed));
    } finally {
      setSaving(false);
    }
  });

  return (
    <AccountSection title="Email address" description={`You sign in with ${currentEmail}. A new address must be confirmed from its inbox.`}>
      {sentTo ? (
        <Stack gap="sm">
          <FormAlert kind="success">
            We sent a link to{' '}
            <Text span fw={700} style={{ overflowWrap: 'anywhere' }}>
              {sentTo}
            </Text>
            . Open it within 1 hour to make the change; until then you keep signing in with {currentEmail}.
          </FormAlert>
          <Group>
            <Button variant="default" onClick={() => setSentTo(null)}>
              Done
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={onSubmit} noValidate aria-label="Change email">
          <Stack gap="md" maw={420}>
            {error && <FormAlert>{error}</FormAlert>}
            <TextInput label="New email" type="email" autoComplete="email" required {...form.getInputProps('newEmail')} />
            {hasPassword && <PasswordField label="Current password" autoComplete="current-password" required {...form.getInputProps('password')} />}
            <Group>
              <Button type="submit" variant="light" leftSection={<IconMailForward size={16} />} loading={saving}>
                Send confirmation link
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </AccountSection>
  );
}
