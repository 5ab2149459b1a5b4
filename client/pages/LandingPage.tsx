import { useState } from 'react';
import {
  Avatar,
  Badge,
  Box,
  Button,
  Card,
  Container,
  Group,
  List,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconArrowRight,
  IconChartBar,
  IconCheck,
  IconDeviceDesktopAnalytics,
  IconFingerprint,
  IconKey,
  IconMailCheck,
  IconShieldCheck,
  IconWorldOff,
} from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider';
import { sampleTestimonials } from '../data/sample';

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

type Period = 'monthly' | 'annually';

interface Tier {
  name: string;
  price: { monthly: number | null; annually: number | null };
  description: string;
  mau: string;
  uptime: string;
  features: string[];
  cta: string;
  highlighted?: boolean;
}

const TIERS: Tier[] = [
  {
    name: 'Free',
    price: { monthly: 0, annually: 0 },
    description: 'For side projects and prototypes.',
    mau: 'Up to 1,000 monthly active users',
    uptime: '99.5% uptime',
    features: ['E-mail & password sign-in', 'E-mail verification', 'Community support'],
    cta: 'Start for free',
  },
  {
    name: 'Pro',
    price: { monthly: 29, annually: 290 },
    description: 'For products with real users.',
    mau: '10,000 monthly active users',
    uptime: '99.9% uptime SLA',
    features: ['Device fingerprinting', 'VPN & proxy detection', 'Admin monitoring', 'E-mail support'],
    cta: 'Start Pro trial',
    highlighted: true,
  },
  {
    name: 'Enterprise',
    price: { monthly: null, annually: null },
    description: 'For teams with custom needs.',
    mau: 'Unlimited monthly active users',
    uptime: '99.99% uptime SLA',
    features: ['Everything in Pro', 'Dedicated support', 'Custom contracts'],
    cta: 'Contact sales',
  },
];

function PriceTag({ tier, period }: { tier: Tier; period: Period }) {
  const amount = tier.price[period];
  if (amount === null) {
    return (
      <Text fz={36} fw={800} lh={1.1}>
        Custom
      </Text>
    );
  }
  return (
    <Group gap={4} align="baseline">
      <Text fz={36} fw={800} lh={1.1}>
        ${amount}
      </Text>
      <Text c="dimmed" size="sm">
        {period === 'monthly' ? '/month' : '/year'}
      </Text>
    </Group>
  );
}

export function LandingPage() {
  const { user } = useAuth();
  const [period, setPeriod] = useState<Period>('monthly');
  const primaryCta = user ? { to: '/dashboard', label: 'Go to dashboard' } : { to: '/signup', label: 'Get started free' };

  return (
    <>
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
              <Button component={Link} to={primaryCta.to} size="md" rightSection={<IconArrowRight size={18} />}>
                {primaryCta.label}
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

      <Box py={{ base: 48, sm: 72 }} style={{ backgroundColor: 'light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))' }}>
        <Container size="lg">
          <Title order={2} ta="center" mb="xl">
            Loved by developers
          </Title>
          <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
            {sampleTestimonials.map((item) => (
              <Card key={item.name} withBorder padding="lg" radius="md" component="figure" m={0}>
                <Text component="blockquote" m={0} size="sm" style={{ fontStyle: 'italic' }}>
                  “{item.quote}”
                </Text>
                <Group gap="sm" mt="lg" component="figcaption">
                  <Avatar radius="xl" color="indigo">
                    {item.name
                      .split(' ')
                      .map((part) => part[0])
                      .join('')}
                  </Avatar>
                  <div>
                    <Text fw={600} size="sm">
                      {item.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {item.role}
                    </Text>
                  </div>
                </Group>
              </Card>
            ))}
          </SimpleGrid>
        </Container>
      </Box>

      <Container size="lg" py={{ base: 48, sm: 72 }} id="pricing">
        <Stack align="center" gap="sm" mb="xl" ta="center">
          <Title order={2}>Simple, predictable pricing</Title>
          <Text c="dimmed">Start free, upgrade when your users arrive.</Text>
          <SegmentedControl
            aria-label="Billing period"
            value={period}
            onChange={(value) => setPeriod(value as Period)}
            data={[
              { label: 'Monthly', value: 'monthly' },
              { label: 'Annually', value: 'annually' },
            ]}
          />
        </Stack>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          {TIERS.map((tier) => (
            <Card
              key={tier.name}
              withBorder
              padding="xl"
              radius="md"
              aria-label={`${tier.name} plan`}
              style={tier.highlighted ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 } : undefined}
            >
              <Group justify="space-between">
                <Title order={3}>{tier.name}</Title>
                {tier.highlighted && <Badge>Most popular</Badge>}
              </Group>
              <Text size="sm" c="dimmed" mt={4}>
                {tier.description}
              </Text>
              <Box my="lg">
                <PriceTag tier={tier} period={period} />
              </Box>
              <List
                spacing={8}
                size="sm"
                icon={
                  <ThemeIcon size={20} radius="xl" color="teal" variant="light">
                    <IconCheck size={14} />
                  </ThemeIcon>
                }
              >
                <List.Item>{tier.mau}</List.Item>
                <List.Item>{tier.uptime}</List.Item>
                {tier.features.map((feature) => (
                  <List.Item key={feature}>{feature}</List.Item>
                ))}
              </List>
              <Button
                mt="xl"
                fullWidth
                component={Link}
                to="/signup"
                variant={tier.highlighted ? 'filled' : 'default'}
              >
                {tier.cta}
              </Button>
            </Card>
          ))}
        </SimpleGrid>
      </Container>

      <Container size="lg" pb={{ base: 48, sm: 72 }}>
        <Card
          radius="lg"
          padding="xl"
          style={{
            background: 'linear-gradient(135deg, var(--mantine-color-indigo-7), var(--mantine-color-cyan-7))',
            color: 'white',
          }}
        >
          <Stack align="center" ta="center" gap="md" py="lg">
            <Title order={2} c="white">
              Ready to secure your app?
            </Title>
            <Text c="white" opacity={0.9} maw={520}>
              Create a developer account, verify your e-mail and have your first project running in minutes.
            </Text>
            <Button component={Link} to={primaryCta.to} size="md" variant="white" color="dark">
              {user ? 'Go to dashboard' : 'Create your free account'}
            </Button>
          </Stack>
        </Card>
      </Container>
    </>
  );
}
