import { useState } from 'react';
import { Badge, Box, Button, Card, Container, Group, List, SegmentedControl, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

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

/** The three tiers with the monthly/annual toggle. */
export function Pricing() {
  const [period, setPeriod] = useState<Period>('monthly');
  return (
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
  );
}
