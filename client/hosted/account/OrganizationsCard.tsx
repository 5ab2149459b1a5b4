import { useState } from 'react';
import { Avatar, Badge, Button, Group, Loader, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IconPlus } from '@tabler/icons-react';
import type { MyOrganization } from '../../../shared/schemas/organizations';
import { notify } from '../../lib/notify';
import { useHostedT } from '../../i18n/useHostedT';
import { hostedErrorMessage } from '../api';
import { FormAlert } from '../components/FormAlert';
import { ORGANIZATIONS_KEY, PROFILE_KEY, useHosted } from '../HostedContext';
import { useFormSubmit } from '../useFormSubmit';
import { AccountSection } from './AccountSection';
import { OrganizationMembersModal } from './OrganizationMembersModal';

/**
 * The organization switcher: the end user's organizations with their role in each, the one their
 * session is in (its tokens carry it), switching, each one's members (inviting and leaving there), and
 * "Create organization" when the project allows it.
 */
export function OrganizationsCard() {
  const { api } = useHosted();
  const { t } = useHostedT();
  const queryClient = useQueryClient();
  const organizations = useQuery({ queryKey: ORGANIZATIONS_KEY, queryFn: api.myOrganizations });
  const [switching, setSwitching] = useState<string | null | undefined>(undefined);
  const [creating, setCreating] = useState(false);
  const [opened, setOpened] = useState<MyOrganization | null>(null);
  const data = organizations.data;

  // Hide the card for a project whose users have no organization and may not create one.
  if (data && data.organizations.length === 0 && !data.can_create) return null;

  const switchTo = async (organization: MyOrganization | null) => {
    setSwitching(organization?.id ?? null);
    try {
      await api.switchOrganization(organization?.id ?? null);
      notify.success(organization ? t('org.switched', { name: organization.name }) : t('org.switchedNone'));
      await queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_KEY });
      await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    } catch (failure) {
      notify.error(hostedErrorMessage(failure, t('org.switchFailed')));
    } finally {
      setSwitching(undefined);
    }
  };

  return (
    <AccountSection title={t('org.title')} description={t('org.help')}>
      {organizations.isPending ? (
        <Loader size="sm" aria-label={t('org.title')} />
      ) : !data ? (
        <Stack gap="sm">
          <FormAlert>{t('org.loadFailed')}</FormAlert>
          <Group>
            <Button variant="default" onClick={() => void organizations.refetch()}>
              {t('common.tryAgain')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          {data.organizations.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('org.none')}
            </Text>
          ) : (
            <Stack gap="xs" role="list" aria-label={t('org.title')}>
              {data.organizations.map((organization) => {
                const active = organization.id === data.active_organization_id;
                return (
                  <Paper key={organization.id} withBorder p="sm" radius="md" role="listitem" aria-label={organization.name} aria-current={active ? 'true' : undefined}>
                    <Group justify="space-between" gap="sm" wrap="wrap">
                      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 180px' }}>
                        <Avatar src={organization.logo_url} radius="md" color="initials" name={organization.name} alt="" />
                        <div style={{ minWidth: 0 }}>
                          <Text fw={600} size="sm" truncate>
                            {organization.name}
                          </Text>
                          <Text size="xs" c="dimmed" truncate>
                            {t('org.role', { role: organization.role })}
                          </Text>
                        </div>
                      </Group>
                      <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
                        {active ? (
                          <Badge variant="light" color="teal">
                            {t('org.active')}
                          </Badge>
                        ) : (
                          <Button
                            size="xs"
                            variant="default"
                            aria-label={t('org.switchTo', { name: organization.name })}
                            loading={switching === organization.id}
                            disabled={switching !== undefined}
                            onClick={() => void switchTo(organization)}
                          >
                            {t('org.switch')}
                          </Button>
                        )}
                        <Button size="xs" variant="light" aria-label={t('org.membersOf', { name: organization.name })} onClick={() => setOpened(organization)}>
                          {t('org.members')}
                        </Button>
                      </Group>
                    </Group>
                  </Paper>
                );
              })}
            </Stack>
          )}
          <Group gap="xs">
            {data.active_organization_id && (
              <Button size="xs" variant="subtle" loading={switching === null} disabled={switching !== undefined} onClick={() => void switchTo(null)}>
                {t('org.leaveActive')}
              </Button>
            )}
            {data.can_create && (
              <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setCreating(true)}>
                {t('org.create')}
              </Button>
            )}
          </Group>
        </Stack>
      )}
      <CreateOrganizationModal opened={creating} onClose={() => setCreating(false)} />
      <OrganizationMembersModal organization={opened} onClose={() => setOpened(null)} />
    </AccountSection>
  );
}

function CreateOrganizationModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { api } = useHosted();
  const { t } = useHostedT();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const { submitting, error, submit } = useFormSubmit(t('org.createFailed'));

  const close = () => {
    setName('');
    setNameError(null);
    onClose();
  };

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setNameError(t('org.nameRequired'));
    if (trimmed.length > 100) return setNameError(t('msg.nameTooLong'));
    void submit(async () => {
      const created = await api.createOrganization({ name: trimmed });
      notify.success(t('org.created', { name: created.name }));
      await queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_KEY });
      close();
    });
  };

  return (
    <Modal opened={opened} onClose={close} title={t('org.createTitle')} centered closeButtonProps={{ 'aria-label': t('common.close') }}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {error && <FormAlert>{error}</FormAlert>}
          <TextInput
            label={t('org.name')}
            value={name}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setNameError(null);
            }}
            error={nameError}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={submitting}>
              {t('org.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
