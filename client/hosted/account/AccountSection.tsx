import type { ReactNode } from 'react';
import { Card, Divider, Text, Title } from '@mantine/core';

/** One titled card of the account page (the platform's settings card, with less padding on phones). */
export function AccountSection({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Card withBorder p={{ base: 'md', sm: 'xl' }} radius="md" component="section" aria-label={title}>
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
