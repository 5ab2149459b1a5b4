import type { ComponentType, ReactNode } from 'react';
import { Card, Divider, Text, Title, type CardProps } from '@mantine/core';

export interface SectionProps {
  title: string;
  description?: string;
  children: ReactNode;
}

/** The titled card a shared account part (components/account) renders in: SettingsSection or the hosted AccountSection. */
export type SectionComponent = ComponentType<SectionProps>;

/** One titled card of a settings tab; other Card props (the hosted account page's) pass through. */
export function SettingsSection({ title, description, children, ...card }: SectionProps & Omit<CardProps, keyof SectionProps> & { component?: 'section'; 'aria-label'?: string }) {
  return (
    <Card withBorder padding="xl" radius="md" {...card}>
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
