import { Button, Card, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';

/** The closing banner; `cta` is the signup link for visitors, the dashboard for signed-in users. */
export function CallToAction({ cta }: { cta: { to: string; label: string } }) {
  return (
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
          <Button component={Link} to={cta.to} size="md" variant="white" color="dark">
            {cta.label}
          </Button>
        </Stack>
      </Card>
    </Container>
  );
}
