import { useEffect, type ReactNode } from 'react';
import {
  Anchor,
  Button,
  Card,
  Code,
  Container,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconCheck, IconCopy, IconTerminal2 } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { PageHeader } from '../components/PageHeader';
import { API_REFERENCE_ID } from '../components/api-docs/anchors';
import { BreakablePath, MethodBadge } from '../components/api-docs/ApiReference';
import { OpenApiReference } from '../components/api-docs/OpenApiReference';
import { useCopy } from '../lib/clipboard';

type Method = 'GET' | 'POST' | 'PUT';

const ENDPOINTS: { method: Method; path: string; description: string }[] = [
  { method: 'POST', path: '/public/api/v1/auth/signup', description: 'Create an end-user account and send a verification e-mail.' },
  { method: 'POST', path: '/public/api/v1/auth/login', description: 'Sign an end user in; returns access and refresh tokens.' },
  { method: 'POST', path: '/public/api/v1/auth/logout', description: 'End the current session.' },
  { method: 'POST', path: '/public/api/v1/auth/verify-email', description: 'Confirm an e-mail address with the token from the link.' },
  { method: 'POST', path: '/public/api/v1/auth/forgot-password', description: 'Send a password-reset link.' },
  { method: 'POST', path: '/public/api/v1/auth/reset-password', description: 'Set a new password with a reset token.' },
  { method: 'GET', path: '/public/api/v1/profile', description: "Read the signed-in end user's profile." },
  { method: 'PUT', path: '/public/api/v1/profile', description: "Update the signed-in end user's profile." },
];

/** The README's quick start, as PowerShell (the same commands run in any shell). */
export const START_SCRIPTS = [
  {
    id: 'production',
    title: 'Start the server',
    description: 'Builds the web client on the first start and serves it with the API on one port, on an SQLite file in data/.',
    code: [
      '# start-server.ps1 — run from the project folder (Node.js 20.19 or newer)',
      'npm ci',
      '# Optional: where people reach it, and an SMTP server for real mail',
      '# (without SMTP_URL every mail is written to data/outbox)',
      '# $env:APP_URL = "https://auth.example.com"',
      '# $env:SMTP_URL = "smtp://user:password@smtp.example.com:587"',
      'npm start',
      '# then open http://localhost:3000',
    ].join('\n'),
  },
  {
    id: 'development',
    title: 'Start in development mode',
    description: 'Runs the API and the Vite dev server with hot reload (the client proxies /trpc and /api).',
    code: ['# start-dev.ps1 — run from the project folder', 'npm ci', 'npm run dev', '# API on http://localhost:3000; open http://localhost:5173'].join('\n'),
  },
];

/** The typed client and offline token check of @authplatform/api (packages/api), as its README shows them. */
export function sdkScript(origin: string): string {
  return [
    "import { createPublicApiClient, verifyAccessToken } from '@authplatform/api';",
    '',
    `const auth = createPublicApiClient({ appUrl: '${origin}', apiKey: process.env.AUTHPLATFORM_KEY! });`,
    '',
    "const { data, error, response } = await auth.POST('/public/api/v1/auth/login', { body: { email, password } });",
    'if (error) throw new Error(`${response.status}: ${error.detail}`);',
    '',
    "// In your API: check an end user's access token offline against the project's keys",
    `const { userId } = await verifyAccessToken(accessToken, { appUrl: '${origin}', projectKey: 'pk_...' });`,
  ].join('\n');
}

/** The curl walkthrough of the public API, against this server's origin. */
export function curlScript(origin: string): string {
  return [
    '# From your backend, with one of your project\'s API keys (never ship it to a browser)',
    `BASE="${origin}/public/api/v1"`,
    'API_KEY="sk_test_..."',
    '',
    '# Sign an end user up (they get a verification e-mail)',
    'curl -s -X POST "$BASE/auth/signup" \\',
    '  -H "X-API-Key: $API_KEY" -H "Content-Type: application/json" \\',
    '  -d \'{"email":"user@example.com","password":"Correct-Horse-42","first_name":"Ada"}\'',
    '',
    '# Sign them in: answers access_token, refresh_token and the user',
    'curl -s -X POST "$BASE/auth/login" \\',
    '  -H "X-API-Key: $API_KEY" -H "Content-Type: application/json" \\',
    '  -H "X-End-User-IP: 203.0.113.7" \\',
    '  -d \'{"email":"user@example.com","password":"Correct-Horse-42"}\'',
    '',
    '# Read their profile with the access token from the login',
    'curl -s "$BASE/profile" -H "X-API-Key: $API_KEY" -H "Authorization: Bearer $ACCESS_TOKEN"',
  ].join('\n');
}

function ScriptCard({ title, description, code }: { title: string; description: ReactNode; code: string }) {
  const { copied, copy } = useCopy();
  return (
    <Card withBorder padding="lg" radius="md" aria-label={title} component="section">
      <Group justify="space-between" align="flex-start" wrap="nowrap" mb="sm" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Group gap={6} wrap="nowrap">
            <IconTerminal2 size={18} style={{ flexShrink: 0 }} />
            <Title order={3} fz="md">
              {title}
            </Title>
          </Group>
          <Text size="sm" c="dimmed" mt={4}>
            {description}
          </Text>
        </div>
        <Group gap={8} wrap="nowrap" style={{ flexShrink: 0 }}>
          {copied && (
            <Text size="sm" c="teal" fw={600} role="status">
              Copied!
            </Text>
          )}
          <Button
            size="xs"
            variant="light"
            leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            onClick={() => void copy(code)}
            aria-label={`Copy ${title} script`}
          >
            Copy
          </Button>
        </Group>
      </Group>
      <Code block className="code-block">
        {code}
      </Code>
    </Card>
  );
}

export function ApiDocsPage() {
  const { hash } = useLocation();
  // A link to a section (the footer's API reference) lands on it, as a page load would.
  useEffect(() => {
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView?.();
  }, [hash]);
  return (
    <Container size="lg" py="xl">
      <PageHeader
        title="API documentation"
        description="Public end-user endpoints your apps call, and scripts to run the platform yourself."
      />

      <Card withBorder padding={0} radius="md" component="section" aria-labelledby="public-endpoints-heading">
        <Stack gap={4} p="lg" pb="sm">
          <Title order={2} fz="lg" id="public-endpoints-heading">
            Public endpoints
          </Title>
          <Text size="sm" c="dimmed">
            JSON in, JSON out. Errors answer <Code>{'{ "detail": "…" }'}</Code> with a matching HTTP status.
          </Text>
        </Stack>
        <Table verticalSpacing="sm" horizontalSpacing="lg" highlightOnHover layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={{ base: 92, sm: 110 }}>Method</Table.Th>
              <Table.Th>Path</Table.Th>
              <Table.Th visibleFrom="sm">What it does</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ENDPOINTS.map((endpoint) => (
              <Table.Tr key={`${endpoint.method} ${endpoint.path}`}>
                <Table.Td style={{ verticalAlign: 'top' }}>
                  <MethodBadge method={endpoint.method} />
                </Table.Td>
                <Table.Td style={{ verticalAlign: 'top' }}>
                  <Code style={{ overflowWrap: 'break-word', whiteSpace: 'normal' }}>
                    <BreakablePath path={endpoint.path} />
                  </Code>
                  {/* On a phone the description sits under the path instead of in a third column. */}
                  <Text size="sm" c="dimmed" mt={4} hiddenFrom="sm">
                    {endpoint.description}
                  </Text>
                </Table.Td>
                <Table.Td visibleFrom="sm" style={{ verticalAlign: 'top' }}>
                  <Text size="sm">{endpoint.description}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>

      <Title order={2} fz="lg" mt={40} mb="md">
        Try it with curl
      </Title>
      <ScriptCard
        title="Sign up and log in an end user"
        description={
          <>
            Every call carries your project&apos;s key in <Code>X-API-Key</Code>. Make one under{' '}
            <Anchor component={Link} to="/api-keys" size="sm">
              API keys
            </Anchor>
            .
          </>
        }
        code={curlScript(window.location.origin)}
      />

      <Title order={2} fz="lg" mt={40} mb="md">
        From your backend (TypeScript)
      </Title>
      <ScriptCard
        title="The SDK"
        description={
          <>
            A client of these endpoints typed from the OpenAPI document, and <Code>verifyAccessToken</Code> for your own API. It lives in the
            repository&apos;s <Code>packages/api</Code> folder as <Code>@authplatform/api</Code> (<Code>npm run sdk:build</Code>); <Code>examples/node-app</Code> is a small app signing its users
            in through this server (<Code>npm run example</Code>).
          </>
        }
        code={sdkScript(window.location.origin)}
      />

      <Title order={2} fz="lg" mt={40} mb="md">
        Run it yourself (PowerShell)
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        {START_SCRIPTS.map((script) => (
          <ScriptCard key={script.id} title={script.title} description={script.description} code={script.code} />
        ))}
      </SimpleGrid>

      <Title order={2} fz="lg" mt={40} mb={4} id={API_REFERENCE_ID}>
        API reference
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Every endpoint of this server, from its OpenAPI document, grouped by area.
      </Text>
      <OpenApiReference />
    </Container>
  );
}
