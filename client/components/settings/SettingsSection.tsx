import type { ReactNode } from 'react';
import { Card, Divider, Text, Title } from '@mantine/core';

/** One titled card of a settings tab. */
export function SettingsSection({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Card withBorder padding="xl" radius="md">
      <Title order={2} fz="lg">
        {title}
      </Title>
      {description && (
        <Text size="sm" c="dimmed" mt={4}>
          {description}
        </Text>
      )}
      <Divider my="md" />
      {children}
    </Card>
  );
}
