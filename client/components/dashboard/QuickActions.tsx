import { Button, Card, SimpleGrid, Title } from '@mantine/core';
import { IconBook, IconChartBar, IconKey, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

export function QuickActions() {
  return (
    <Card withBorder padding="lg" radius="md" mt="lg" component="section" aria-labelledby="actions-heading">
      <Title order={2} fz="lg" mb="md" id="actions-heading">
        Quick actions
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
        <Button component={Link} to="/projects?create=1" variant="light" leftSection={<IconPlus size={16} />}>
          Create project
        </Button>
        <Button component={Link} to="/api-keys" variant="light" color="grape" leftSection={<IconKey size={16} />}>
          Manage API keys
        </Button>
        <Button component={Link} to="/analytics" variant="light" color="teal" leftSection={<IconChartBar size={16} />}>
          View analytics
        </Button>
        <Button component={Link} to="/api-docs" variant="light" color="orange" leftSection={<IconBook size={16} />}>
          View API docs
        </Button>
      </SimpleGrid>
    </Card>
  );
}
