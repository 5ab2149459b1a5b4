import { Badge, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import type { User } from '../../../shared/schemas/user';
import { AccountSection } from './AccountSection';
import { NamesFormSchema, resolver } from '../../forms';
import { notify } from '../../lib/notify';
import { FormAlert } from '../components/FormAlert';
import { PROFILE_KEY, useHosted } from '../HostedContext';
import { useFormSubmit } from '../useFormSubmit';
import { useHostedT } from '../../i18n/useHostedT';
import { translated } from '../i18n/validate';

/** The end user's names (the e-mail is shown, not edited here). */
export function ProfileCard({ user }: { user: User }) {
  const { api } = useHosted();
  const { t, known } = useHostedT();
  const queryClient = useQueryClient();
  const { submitting: saving, error, submit } = useFormSubmit(t('msg.profileUpdateFailed'));
  const form = useForm({
    mode: 'controlled',
    initialValues: { firstName: user.first_name ?? '', lastName: user.last_name ?? '' },
    validate: translated(resolver(NamesFormSchema), known),
  });

  const onSubmit = form.onSubmit((values) =>
    submit(async () => {
      const updated = await api.updateProfile({ first_name: values.firstName.trim() || null, last_name: values.lastName.trim() || null });
      queryClient.setQueryData(PROFILE_KEY, updated);
      notify.success(t('msg.profileUpdated'));
    }),
  );

  return (
    <AccountSection title={t('account.profile')} description={t('account.profileHelp')}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {error && <FormAlert>{error}</FormAlert>}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput label={t('common.firstName')} autoComplete="given-name" {...form.getInputProps('firstName')} />
            <TextInput label={t('common.lastName')} autoComplete="family-name" {...form.getInputProps('lastName')} />
          </SimpleGrid>
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('common.email')}
            </Text>
            <Group gap="xs">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {user.email}
              </Text>
              <Badge variant="light" color={user.is_verified ? 'teal' : 'orange'}>
                {user.is_verified ? t('account.verified') : t('account.notVerified')}
              </Badge>
            </Group>
          </Stack>
          <Group>
            <Button type="submit" loading={saving}>
              {t('account.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AccountSection>
  );
}
