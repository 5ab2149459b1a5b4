import type { ReactNode } from 'react';
import { Container, Paper, Stack, Text, Title } from '@mantine/core';

/** The centred card every account screen (login, signup, reset, verify) sits in. */
export function AuthShell({
  title,
  subtitle,
  children,
  footer,
  size = 440,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  size?: number;
}) {
  return (
    <Container size={size} px="md" py={{ base: 32, sm: 56 }}>
      <Stack gap={6} mb="lg" ta="center">
        <Title order={1} fz={{ base: 26, sm: 30 }}>
          {title}
        </Title>
        {subtitle && (
          <Text c="dimmed" size="sm">
            {subtitle}
          </Text>
        )}
      </Stack>
      <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }} radius="md">
        {children}
      </Paper>
      {footer && (
        <Text ta="center" size="sm" c="dimmed" mt="md">
          {footer}
        </Text>
      )}
    </Container>
  );
}
