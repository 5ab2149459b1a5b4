import { useRef, useState } from 'react';
import {
  Avatar,
  Badge,
  Button,
  Card,
  Container,
  Divider,
  Grid,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCalendar, IconClock, IconMail, IconPencil, IconShieldCheck } from '@tabler/icons-react';
import { z } from 'zod';
import { UpdateProfileInputSchema } from '../../shared/schemas/auth';
import { isEffectiveAdmin } from '../../shared/schemas/user';
import { useAuth } from '../auth/AuthProvider';
import { CaptchaField, type CaptchaHandle } from '../components/CaptchaField';
import { PageHeader } from '../components/PageHeader';
import { ChangeEmailSection } from '../components/profile/ChangeEmailSection';
import { resolver } from '../forms';
import { errorMessage } from '../lib/errors';
import { formatDate, formatDateTime, initials, nameOrEmail } from '../lib/format';
import { notify } from '../lib/notify';
import { trpc } from '../lib/trpc';
import { MESSAGES, TOASTS } from '../messages';

const ProfileFormSchema = z.object({
  firstName: UpdateProfileInputSchema.shape.first_name,
  lastName: UpdateProfileInputSchema.shape.last_name,
});

function InfoRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <div style={{ textAlign: 'right' }}>{children}</div>
    </Group>
  );
}

export function ProfilePage() {
  const { user, refreshUser } = useAuth();
  const updateProfile = trpc.profile.update.useMutation();
  const resend = trpc.auth.resendVerification.useMutation();
  const captcha = useRef<CaptchaHandle>(null);
  const [editing, setEditing] = useState(false);

  const form = useForm({
    mode: 'controlled',
    initialValues: { firstName: user?.first_name ?? '', lastName: user?.last_name ?? '' },
    validate: resolver(ProfileFormSchema),
  });

  if (!user) return null;

  const startEditing = () => {
    form.setValues({ firstName: user.first_name ?? '', lastName: user.last_name ?? '' });
    form.resetDirty();
    form.clearErrors();
    setEditing(true);
  };

  const cancel = () => {
    form.setValues({ firstName: user.first_name ?? '', lastName: user.last_name ?? '' });
    form.clearErrors();
    setEditing(false);
  };

  const onSave = form.onSubmit(async (values) => {
    try {
      await updateProfile.mutateAsync({
        first_name: values.firstName.trim() || null,
        last_name: values.lastName.trim() || null,
      });
      await refreshUser();
      notify.success(TOASTS.profileUpdated);
      setEditing(false);
    } catch (error) {
      notify.error(errorMessage(error, TOASTS.profileUpdateFailed));
    }
  });

  const onResend = async () => {
    try {
      await resend.mutateAsync({ email: user.email, captcha_token: (await captcha.current?.token()) ?? '' });
      notify.success(MESSAGES.verificationSent);
    } catch (error) {
      notify.error(errorMessage(error, TOASTS.resendFailed));
    }
  };

  return (
    <Container size="lg" py="xl">
      <PageHeader title="Profile" description="Your personal information and account status." />
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Card withBorder padding="xl" radius="md">
            <Stack align="center" ta="center" gap="xs">
              <Avatar size={88} radius={88} color="indigo" variant="filled" aria-hidden>
                <Text fz={30} fw={700} c="white">
                  {initials(user)}
                </Text>
              </Avatar>
              <Title order={2} fz="xl" mt="xs" style={{ wordBreak: 'break-word' }}>
                {nameOrEmail(user)}
              </Title>
              <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
                {user.email}
              </Text>
              {user.is_verified ? (
                <Badge color="teal" variant="light" leftSection={<IconShieldCheck size={12} />}>
                  Verified
                </Badge>
              ) : (
                <Badge color="yellow" variant="light">
                  Pending verification
                </Badge>
              )}
            </Stack>
            <Stack gap="xs" mt="lg">
              <Group gap="xs" wrap="nowrap">
                <IconCalendar size={16} color="var(--mantine-color-dimmed)" />
                <Text size="sm">Member since {formatDate(user.created_at)}</Text>
              </Group>
              <Group gap="xs" wrap="nowrap">
                <IconClock size={16} color="var(--mantine-color-dimmed)" />
                <Text size="sm">Last login {formatDateTime(user.last_login)}</Text>
              </Group>
            </Stack>
          </Card>
        </Grid.Col>

        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="lg">
            <Card withBorder padding="xl" radius="md">
              <form onSubmit={onSave} noValidate>
                <Group justify="space-between" mb="md">
                  <Title order={2} fz="lg">
                    Personal information
                  </Title>
                  {!editing && (
                    <Button variant="light" leftSection={<IconPencil size={16} />} onClick={startEditing}>
                      Edit
                    </Button>
                  )}
                </Group>
                <Stack gap="md">
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                    <TextInput
                      label="First name"
                      autoComplete="given-name"
                      readOnly={!editing}
                      variant={editing ? 'default' : 'filled'}
                      {...form.getInputProps('firstName')}
                    />
                    <TextInput
                      label="Last name"
                      autoComplete="family-name"
                      readOnly={!editing}
                      variant={editing ? 'default' : 'filled'}
                      {...form.getInputProps('lastName')}
                    />
                  </SimpleGrid>
                  <TextInput label="Email" value={user.email} readOnly variant="filled" leftSection={<IconMail size={16} />} />
                  {editing && (
                    <Group justify="flex-end" gap="sm">
                      <Button variant="default" onClick={cancel} disabled={updateProfile.isPending}>
                        Cancel
                      </Button>
                      <Button type="submit" loading={updateProfile.isPending}>
                        Save
                      </Button>
                    </Group>
                  )}
                </Stack>
              </form>
              <Divider my="lg" />
              <ChangeEmailSection currentEmail={user.email} />
            </Card>

            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
              <Card withBorder padding="lg" radius="md">
                <Title order={2} fz="md" mb="sm">
                  Account status
                </Title>
                <Stack gap="xs">
                  <InfoRow label="Status">
                    <Badge color={user.is_active ? 'teal' : 'red'} variant="light">
                      {user.is_active ? 'Active' : 'Inactive'}
                    </Badge>
                  </InfoRow>
                  <InfoRow label="Role">
                    <Badge variant="outline" color="gray">
                      {isEffectiveAdmin(user) ? 'Administrator' : 'Developer'}
                    </Badge>
                  </InfoRow>
                  <InfoRow label="Member since">
                    <Text size="sm">{formatDate(user.created_at)}</Text>
                  </InfoRow>
                </Stack>
              </Card>
              <Card withBorder padding="lg" radius="md">
                <Title order={2} fz="md" mb="sm">
                  Email verification
                </Title>
                {user.is_verified ? (
                  <Text size="sm" c="dimmed">
                    Your email address has been verified.
                  </Text>
                ) : (
                  <Stack gap="sm">
                    <Text size="sm" c="dimmed">
                      Please verify your email address to unlock every feature.
                    </Text>
                    <CaptchaField ref={captcha} />
                    <Button variant="light" onClick={() => void onResend()} loading={resend.isPending}>
                      Resend verification email
                    </Button>
                  </Stack>
                )}
              </Card>
            </SimpleGrid>
          </Stack>
        </Grid.Col>
      </Grid>
    </Container>
  );
}
