import { Anchor, Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLinkOff } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AuthShell } from '../components/AuthShell';
import { KeepSignInMethodsField } from '../components/KeepSignInMethodsField';
import { NewPasswordFields } from '../components/NewPasswordFields';
import { ResetPasswordFormSchema, resolver } from '../forms';
import { errorMessage } from '../lib/errors';
import { notify } from '../lib/notify';
import { trpc } from '../lib/trpc';
import { MESSAGES, TOASTS, VALIDATION } from '../messages';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const navigate = useNavigate();
  const resetPassword = trpc.auth.resetPassword.useMutation();

  const form = useForm({
    mode: 'controlled',
    initialValues: { password: '', confirmPassword: '', keepSignInMethods: false },
    // Checked on submit, not on blur: a message shown on blur pushes the button away from a click in progress.
    validate: resolver(ResetPasswordFormSchema),
  });

  if (!token) {
    return (
      <AuthShell title="Invalid Reset Link">
        <Stack align="center" ta="center" gap="md">
          <ThemeIcon size={56} radius="xl" variant="light" color="red">
            <IconLinkOff size={30} />
          </ThemeIcon>
          <Text>{VALIDATION.resetTokenInvalid}. This password reset link is invalid or has expired.</Text>
          <Button component={Link} to="/forgot-password">
            Request a new reset link
          </Button>
        </Stack>
      </AuthShell>
    );
  }

  const onSubmit = form.onSubmit(async (values) => {
    try {
      await resetPassword.mutateAsync({ token, new_password: values.password, keep_sign_in_methods: values.keepSignInMethods });
      notify.success(TOASTS.resetSuccess);
      navigate('/login', { replace: true, state: { message: MESSAGES.passwordResetSuccess } });
    } catch (error) {
      notify.error(errorMessage(error, TOASTS.resetFailed));
    }
  });

  return (
    <AuthShell
      title="Set a new password"
      subtitle="Choose a strong password you don't use anywhere else"
      footer={
        <Anchor component={Link} to="/login" size="sm">
          Back to sign in
        </Anchor>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <NewPasswordFields password={form.getInputProps('password')} confirmation={form.getInputProps('confirmPassword')} />
          <KeepSignInMethodsField {...form.getInputProps('keepSignInMethods', { type: 'checkbox' })} />
          <Button type="submit" fullWidth loading={resetPassword.isPending}>
            Reset password
          </Button>
        </Stack>
      </form>
    </AuthShell>
  );
}
