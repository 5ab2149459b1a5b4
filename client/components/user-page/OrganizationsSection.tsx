import { Anchor, Badge, Card, Group, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { UserDetail } from '../../../shared/schemas/user-detail';
import { formatDate } from '../../lib/format';
import type { UserPageSource } from './source';

/**
 * The organizations a project's end user belongs to, with their role in each: shown only when there
 * are some (the platform's own accounts have none, and the admin area's source has no such list).
 */
export function OrganizationsSection({ source, user }: { source: UserPageSource; user: UserDetail }) {
  const organizations = source.useOrganizations?.(user.id).data?.organizations ?? [];
  if (organizations.length === 0) return null;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label="Organizations">
      <Title order={2} fz="lg" mb="sm">
        Organizations
      </Title>
      <Table.ScrollContainer minWidth={420} type="native">
        <Table aria-label="Organizations">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Organization</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Joined</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {organizations.map((organization) => (
              <Table.Tr key={organization.id}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    {source.organizationPath ? (
                      <Anchor component={Link} to={source.organizationPath(organization.id)}>
                        {organization.name}
                      </Anchor>
                    ) : (
                      <Text size="sm">{organization.name}</Text>
                    )}
                    <Text size="xs" c="dimmed">
                      {organization.slug}
                    </Text>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light">{organization.role}</Badge>
                </Table.Td>
                <Table.Td>{formatDate(organization.joined_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
