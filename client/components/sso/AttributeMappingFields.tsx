import { ActionIcon, Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { AttributeMapping } from '../../../shared/schemas/sso';

/** One IdP group and the organization role its members get. */
export interface GroupRole {
  group: string;
  role: string | null;
}

export interface MappingDraft {
  email: string;
  first_name: string;
  last_name: string;
  groups: string;
  group_roles: GroupRole[];
}

export function mappingDraftOf(mapping: AttributeMapping): MappingDraft {
  return {
    email: mapping.email ?? '',
    first_name: mapping.first_name ?? '',
    last_name: mapping.last_name ?? '',
    groups: mapping.groups ?? '',
    group_roles: Object.entries(mapping.group_roles ?? {}).map(([group, role]) => ({ group, role })),
  };
}

/** The mapping the server takes: empty fields left out (the protocol's default), unfinished group rows dropped. */
export function mappingOf(draft: MappingDraft): AttributeMapping {
  const named = (value: string) => (value.trim() ? value.trim() : undefined);
  const groupRoles = Object.fromEntries(draft.group_roles.filter((row) => row.group.trim() && row.role).map((row) => [row.group.trim(), row.role!]));
  const mapping: AttributeMapping = {
    email: named(draft.email),
    first_name: named(draft.first_name),
    last_name: named(draft.last_name),
    groups: named(draft.groups),
    ...(Object.keys(groupRoles).length > 0 && { group_roles: groupRoles }),
  };
  return Object.fromEntries(Object.entries(mapping).filter(([, value]) => value !== undefined)) as AttributeMapping;
}

/** Which SAML attributes (or OIDC claims) fill the profile, and which IdP groups give which organization role. */
export function AttributeMappingFields({
  kind,
  draft,
  onChange,
  roles,
}: {
  kind: 'saml' | 'oidc';
  draft: MappingDraft;
  onChange(draft: MappingDraft): void;
  roles: { value: string; label: string }[];
}) {
  const set = (changes: Partial<MappingDraft>) => onChange({ ...draft, ...changes });
  const setRow = (index: number, changes: Partial<GroupRole>) => set({ group_roles: draft.group_roles.map((row, at) => (at === index ? { ...row, ...changes } : row)) });
  const source = kind === 'saml' ? 'SAML attribute' : 'claim';
  return (
    <Stack gap="sm" role="group" aria-labelledby="sso-mapping-label">
      <div>
        <Text size="sm" fw={500} id="sso-mapping-label">
          Attribute mapping
        </Text>
        <Text size="xs" c="dimmed">
          Which {source} fills each field. Leave a field empty for the default ({kind === 'saml' ? 'the NameID for the e-mail' : 'email, given_name, family_name'}).
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput label="E-mail" value={draft.email} onChange={(event) => set({ email: event.currentTarget.value })} placeholder={kind === 'saml' ? 'NameID' : 'email'} maxLength={200} />
        <TextInput label="Groups" value={draft.groups} onChange={(event) => set({ groups: event.currentTarget.value })} placeholder="groups" maxLength={200} />
        <TextInput label="First name" value={draft.first_name} onChange={(event) => set({ first_name: event.currentTarget.value })} placeholder={kind === 'saml' ? 'firstName' : 'given_name'} maxLength={200} />
        <TextInput label="Last name" value={draft.last_name} onChange={(event) => set({ last_name: event.currentTarget.value })} placeholder={kind === 'saml' ? 'lastName' : 'family_name'} maxLength={200} />
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        IdP groups to roles: the first group of a person found here gives their role; none found, the default role.
      </Text>
      {draft.group_roles.map((row, index) => (
        <Group key={index} gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            style={{ flex: 1, minWidth: 0 }}
            label={`IdP group ${index + 1}`}
            value={row.group}
            onChange={(event) => setRow(index, { group: event.currentTarget.value })}
            maxLength={200}
          />
          <Select
            style={{ flex: 1, minWidth: 0 }}
            label={`Role for group ${index + 1}`}
            data={roles}
            value={row.role}
            onChange={(role) => setRow(index, { role })}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove group ${index + 1}`} onClick={() => set({ group_roles: draft.group_roles.filter((_, at) => at !== index) })}>
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => set({ group_roles: [...draft.group_roles, { group: '', role: null }] })}>
          Map a group to a role
        </Button>
      </Group>
    </Stack>
  );
}
