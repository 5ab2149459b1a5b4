import { Anchor, Box, Container, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { Logo, PRODUCT_NAME } from './Logo';
import { API_REFERENCE_ID } from './api-docs/anchors';
import { LegalLink, legalPages } from './site/LegalLinks';

export const PRODUCT_DESCRIPTION = `${PRODUCT_NAME} is an authentication system with device fingerprinting and VPN detection.`;

function Column({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap={8}>
      <Text fw={700} size="sm" tt="uppercase" c="dimmed" style={{ letterSpacing: 0.5 }}>
        {title}
      </Text>
      {children}
    </Stack>
  );
}

export function Footer() {
  const year = new Date().getFullYear();
  const legal = legalPages();
  return (
    <Box
      component="footer"
      mt="auto"
      py="xl"
      style={{
        borderTop: '1px solid var(--mantine-color-default-border)',
        backgroundColor: 'light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))',
      }}
    >
      <Container size="lg">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xl">
          <Stack gap="sm">
            <Logo />
            <Text size="sm" c="dimmed" maw={280}>
              {PRODUCT_DESCRIPTION}
            </Text>
          </Stack>
          <Column title="Product">
            <Anchor component={Link} to="/api-docs" size="sm" c="dimmed">
              Documentation
            </Anchor>
            <Anchor component={Link} to={`/api-docs#${API_REFERENCE_ID}`} size="sm" c="dimmed">
              API reference
            </Anchor>
            <Anchor component={Link} to="/status" size="sm" c="dimmed">
              System Status
            </Anchor>
          </Column>
          <Column title="Account">
            <Anchor component={Link} to="/forgot-password" size="sm" c="dimmed">
              Forgot password?
            </Anchor>
          </Column>
          {legal.length > 0 && (
            <Column title="Legal">
              {legal.map((page) => (
                <LegalLink key={page.href} size="sm" c="dimmed" label={page.label} href={page.href} />
              ))}
            </Column>
          )}
        </SimpleGrid>
        <Group justify="space-between" mt="xl" pt="md" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <Text size="sm" c="dimmed">
            © {year} {PRODUCT_NAME}. All rights reserved.
          </Text>
        </Group>
      </Container>
    </Box>
  );
}
