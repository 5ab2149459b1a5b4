import { useRef, useState } from 'react';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailCheck, IconMailForward } from '@tabler/icons-react';
import { ChangeEmailFormSchema, ChangeEmailWithoutPasswordFormSchema, resolver } from '../../forms';
import { errorMessage } from '../../lib/errors';
import { StepUpCancelled } from '../../lib/step-up';
import { trpc } from '../../lib/trpc';
import { useStepUp } from '../account/StepUp';
import { ACCOUNT_TEXTS } from '../../messages';
import { PasswordField } from '../PasswordField';

type Step = { kind: 'closed' } | { kind: 'form' } | { kind: 'sent'; newEmail: string };

/**
 * Profile → change the e-mail address: the new address and the current password (an account without
 * one proves who it is in the step-up dialog instead); the change happens when the link mailed to the
 * new address is opened (ConfirmEmailChangePage).
 */
export function ChangeEmailSection({ currentEmail }: { currentEmail: string }) {
  const changeEmail = trpc.auth.changeEmail.useMutation();
  const methods = trpc.social.identities.useQuery();
  // Until the account's ways in are known, ask for the password as before.
  const hasPassword = methods.data?.has_password ?? true;
  const hasPasswordRef = useRef(hasPassword);
  hasPasswordRef.current = hasPassword;
  const stepUp = useStepUp();
  const [step, setStep] = useState<Step>({ kind: 'closed' });
  const [error, setError] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { newEmail: '', password: '' },
    validate: (values) => resolver(hasPasswordRef.current ? ChangeEmailFormSchema : ChangeEmailWithoutPasswordFormSchema)(values),
  });

  const goTo = (next: Step) => {
    form.reset();
    setError(null);
    setStep(next);
  };

  const onSubmit = form.onSubmit(async (values) => {
    setError(null);
    try {
      const newEmail = values.newEmail.trim();
      await stepUp.guard(() => changeEmail.mutateAsync({ new_email: newEmail, ...(hasPassword && { password: values.password }) }));
      goTo({ kind: 'sent', newEmail });
    } catch (failure) {
      if (!(failure instanceof StepUpCancelled)) setError(errorMessage(failure, ACCOUNT_TEXTS.changeEmailFailed));
    }
  });

  if (step.kind === 'sent') {
    return (
      <Alert variant="light" color="teal" icon={<IconMailCheck size={18} />} title="Check your new inbox" role="status">
        <Stack gap="xs">
          <Text size="sm" style={{ wordBreak: 'break-word' }}>
            We sent a message to <strong>{step.newEmail}</strong>. Open the link in it within 1 hour to confirm the change; until then your email address stays {currentEmail}.
          </Text>
          <Group>
            <Button size="xs" variant="default" onClick={() => goTo({ kind: 'closed' })}>
              Done
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  }

  if (step.kind === 'closed') {
    return (
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed">
          Changing your email address needs {hasPassword ? 'your password' : 'a proof that it is you'} and a link sent to the new address.
        </Text>
        <Button variant="light" leftSection={<IconMailForward size={16} />} onClick={() => goTo({ kind: 'form' })}>
          Change email
        </Button>
      </Group>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change email">
      <Stack gap="md" maw={420}>
        <TextInput label="New email" type="email" autoComplete="email" required {...form.getInputProps('newEmail')} />
        {hasPassword && <PasswordField label="Current password" autoComplete="current-password" required {...form.getInputProps('password')} />}
        {error && (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        )}
        <Group gap="sm">
          <Button type="submit" loading={changeEmail.isPending}>
            Send confirmation link
          </Button>
          <Button variant="default" onClick={() => goTo({ kind: 'closed' })} disabled={changeEmail.isPending}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
