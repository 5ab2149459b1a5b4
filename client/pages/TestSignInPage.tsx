import { useEffect, useState } from 'react';
import { Alert, Anchor, Button, Card, Code, Container, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconCircleCheck } from '@tabler/icons-react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { PageHeader } from '../components/PageHeader';
import { finishTestSignIn, TestSignInError, type TestSignInResult } from '../components/projects/quickstart/testSignIn';

type Outcome = { kind: 'pending' } | { kind: 'done'; result: TestSignInResult } | { kind: 'failed'; message: string; projectId?: string };

/** The code is spent once: a second run of the effect (React's strict mode) finds the exchange of its state under way. */
let exchange: { state: string; result: Promise<TestSignInResult> } | null = null;

function ClaimsCard({ title, claims }: { title: string; claims: Record<string, unknown> }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title}>
      <Title order={2} fz="md" mb="sm">
        {title}
      </Title>
      <Code block className="code-block" data-testid={title}>
        {JSON.stringify(claims, null, 2)}
      </Code>
    </Card>
  );
}

/**
 * Where a project's "Test sign-in" comes back (the provider accepts this page for every project): it
 * exchanges the code with the verifier this browser kept, then shows the tokens' claims. The code
 * leaves the address bar at once, so it is neither bookmarked nor shown.
 */
export function TestSignInPage() {
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'pending' });
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    const callback = new URL(`${location.pathname}${location.search}`, window.location.origin);
    const state = callback.searchParams.get('state') ?? '';
    if (!exchange || (state && exchange.state !== state)) exchange = { state, result: finishTestSignIn(callback) };
    if (location.search) navigate(location.pathname, { replace: true });
    let live = true;
    exchange.result.then(
      (result) => live && setOutcome({ kind: 'done', result }),
      (error: unknown) => {
        if (!live) return;
        const message = error instanceof TestSignInError ? error.message : `The sign-in could not be completed: ${error instanceof Error ? error.message : String(error)}`;
        setOutcome({ kind: 'failed', message });
      },
    );
    return () => {
      live = false;
    };
    // Once, with the address the provider sent the browser to.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const backTo = outcome.kind === 'done' ? `/projects/${encodeURIComponent(outcome.result.projectId)}` : '/projects';
  const back = (
    <Button component={Link} to={backTo} variant="default" leftSection={<IconArrowLeft size={16} />}>
      {outcome.kind === 'done' ? `Back to ${outcome.result.projectName}` : 'Back to projects'}
    </Button>
  );

  return (
    <Container size="lg" py="xl">
      <PageHeader title="Test sign-in" description="The project's hosted sign-in, run from the dashboard as an app would." />
      {outcome.kind === 'pending' && (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text>Exchanging the code for tokens…</Text>
        </Group>
      )}
      {outcome.kind === 'failed' && (
        <Stack gap="md" align="flex-start">
          <Alert color="red" variant="light" title="Test sign-in failed" role="alert" w="100%">
            {outcome.message}
          </Alert>
          {back}
        </Stack>
      )}
      {outcome.kind === 'done' && (
        <Stack gap="lg">
          <Alert color="teal" variant="light" icon={<IconCircleCheck />} title="Signed in" role="status">
            {outcome.result.projectName} signed in{' '}
            <Text span fw={600}>
              {String(outcome.result.idTokenClaims.email ?? outcome.result.idTokenClaims.sub)}
            </Text>
            . These are the claims an app of this project receives; the session the test made has been ended again.
          </Alert>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <ClaimsCard title="ID token claims" claims={outcome.result.idTokenClaims} />
            <ClaimsCard title="Access token claims" claims={outcome.result.accessTokenClaims} />
          </SimpleGrid>
          <Text size="sm" c="dimmed">
            Verify access tokens in your API with @authplatform/apiwith the SDK&apos;s verifyAccessTokenapos;s verifyAccessToken, or read them from{' '}
            <Anchor component={Link} to="/api-docs">
              the API reference
            </Anchor>
            .
          </Text>
          <div>{back}</div>
        </Stack>
      )}
    </Container>
  );
}
