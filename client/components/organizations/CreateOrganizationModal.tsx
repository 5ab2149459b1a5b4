import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ORGANIZATION_MESSAGES, slugFrom, type Organization } from '../../../shared/schemas/organizations';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Validation the server repeats, in the same words. */
export const organizationRules = {
  name: (value: string) => (!value.trim() ? 'name is required' : value.trim().length > 100 ? 'name must be at most 100 characters' : null),
  slug: (value: string) =>
    value.trim() && !SLUG.test(value.trim().toLowerCase()) ? 'slug must be 1 to 64 lowercase letters, digits and hyphens, starting and ending with a letter or digit' : null,
  logo_url: (value: string) => {
    if (!value.trim()) return null;
    try {
      return new URL(value.trim()).protocol === 'https:' ? null : 'logo_url must be an https URL';
    } catch {
      return 'logo_url must be an https URL';
    }
  },
};

/** A new organization: its name, and a slug made from it unless one is given. */
export function CreateOrganizationModal({ projectId, opened, onClose, onCreated }: { projectId: string; opened: boolean; onClose: () => void; onCreated: (organization: Organization) => void }) {
  const create = trpc.organizations.create.useMutation();
  const utils = trpc.useUtils();
  const [error, setError] = useState<string | null>(null);
  const form = useForm({ mode: 'controlled', initialValues: { name: '', slug: '', logo_url: '' }, validate: organizationRules });

  const close = () => {
    form.reset();
    setError(null);
    onClose();
  };

  const onSubmit = form.onSubmit(async (values) => {
    setError(null);
    try {
      const organization = await create.mutateAsync({
        id: projectId,
        name: values.name.trim(),
        ...(values.slug.trim() ? { slug: values.slug.trim().toLowerCase() } : {}),
        ...(values.logo_url.trim() ? { logo_url: values.logo_url.trim() } : {}),
      });
      notify.success(`Organization ${organization.name} created`);
      await utils.organizations.list.invalidate({ id: projectId });
      form.reset();
      onCreated(organization);
    } catch (failure) {
      const detail = errorMessage(failure, 'Could not create the organization');
      if (detail === ORGANIZATION_MESSAGES.slugTaken) form.setFieldError('slug', detail);
      else setError(detail);
    }
  });

  const name = form.getValues().name;
  return (
    <Modal opened={opened} onClose={close} title="New organization" centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput label="Name" placeholder="Acme Inc." required data-autofocus {...form.getInputProps('name')} />
          <TextInput
            label="Slug"
            description="Unique in the project; made from the name when left empty"
            placeholder={name.trim() ? slugFrom(name) : 'acme-inc'}
            {...form.getInputProps('slug')}
          />
          <TextInput label="Logo URL" placeholder="https://example.com/logo.png" {...form.getInputProps('logo_url')} />
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create organization
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
