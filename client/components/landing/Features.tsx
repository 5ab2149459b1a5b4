import { Card, Container, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconChartBar,
  IconDeviceDesktopAnalytics,
  IconFingerprint,
  IconKey,
  IconMailCheck,
  IconWorldOff,
} from '@tabler/icons-react';

const FEATURES = [
  {
    icon: IconFingerprint,
    title: 'Device fingerprinting',
    text: 'Recognise returning devices, trust the ones your users know and block the ones they do not.',
  },
  {
    icon: IconWorldOff,
    title: 'VPN & proxy detection',
    text: 'Flag sign-ins from VPNs and proxies so risky attempts stand out in your login history.',
  },
  {
    icon: IconMailCheck,
    title: 'E-mail verification',
    text: 'Verification and password-reset e-mails with expiring, single-use links out of the box.',
  },
  {
    icon: IconKey,
    title: 'Secure sessions',
    text: 'Short-lived access tokens, rotating refresh tokens and HttpOnly cookies by default.',
  },
  {
    icon: IconDeviceDesktopAnalytics,
    title: 'Admin monitoring',
    text: 'See users, login attempts, devices and active sessions — and revoke access in one click.',
  },
  {
    icon: IconChartBar,
    title: 'Projects & analytics',
    text: 'Separate development, staging and production projects with their own keys and usage numbers.',
  },
];

export function Features() {
  return (
    <Container size="lg" py={{ base: 48, sm: 72 }}>
      <Stack gap="xs" align="center" ta="center" mb="xl">
        <Title order={2}>Everything you need to sign users in safely</Title>
        <Text c="dimmed" maw={560}>
          Batteries included: the boring parts of authentication, done carefully.
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
        {FEATURES.map((feature) => (
          <Card key={feature.title} withBorder padding="lg" radius="md">
            <ThemeIcon size={44} radius="md" variant="light">
              <feature.icon size={24} stroke={1.6} />
            </ThemeIcon>
            <Title order={3} fz="lg" mt="md">
              {feature.title}
            </Title>
            <Text size="sm" c="dimmed" mt={6}>
              {feature.text}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Container>
  );
}
