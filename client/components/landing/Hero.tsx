import { Badge, Box, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight, IconShieldCheck } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

/** The headline with the 'public beta' badge, the main call to action and the SLA claim. */
export function Hero({ cta }: { cta: { to: string; label: string } }) {
  return (
    <Box className="hero-gradient" py={{ base: 56, sm: 96 }}>
      <Container size="md">
        <Stack align="center" gap="lg" ta="center">
          <Badge variant="light" size="lg" radius="xl">
            Now in public beta
          </Badge>
          <Title order={1} fz={{ base: 34, sm: 52 }} lh={1.1} maw={760}>
            Authentication your users trust,{' '}
            <Text
              span
              inherit
              variant="gradient"
              gradient={{ from: 'indigo', to: 'cyan', deg: 90 }}
            >
              in minutes
            </Text>
          </Title>
          <Text size="lg" c="dimmed" maw={620}>
            Sign-up, login, e-mail verification and password reset for your apps — with device fingerprinting, VPN
            detection and an admin console to watch it all.
          </Text>
          <Group justify="center" gap="sm">
            <Button component={Link} to={cta.to} size="md" rightSection={<IconArrowRight size={18} />}>
              {cta.label}
            </Button>
            <Button component={Link} to="/api-docs" size="md" variant="default">
              Read the API docs
            </Button>
          </Group>
          <Group gap="xs" justify="center">
            <IconShieldCheck size={18} color="var(--mantine-color-teal-6)" />
            <Text size="sm" c="dimmed">
              99.9% uptime SLA · No credit card required
            </Text>
          </Group>
        </Stack>
      </Container>
    </Box>
  );
}
