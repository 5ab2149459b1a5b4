import { useState, type ReactNode } from 'react';
import { Alert, Badge, Button, Card, Code, Group, SegmentedControl, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { IconCheck, IconCopy, IconPlayerPlay, IconRocket } from '@tabler/icons-react';
import type { Project } from '../../../../shared/schemas/projects';
import { useCopy } from '../../../lib/clipboard';
import { notify } from '../../../lib/notify';
import { APP_KINDS, envBlock, isAppKind, quickstartValues, type AppKind } from './quickstartValues';
import { quickstartSteps } from './quickstartSteps';
import { startTestSignIn } from './testSignIn';

/**
 * A block of code or configuration under its heading, with a copy button beside the heading. Lines keep
 * their shape: a narrow screen scrolls the block sideways (focusable, so the keyboard can too).
 */
function CopyBlock({ heading, code, copyLabel, label }: { heading: ReactNode; code: string; copyLabel: string; label: string }) {
  const { copied, copy } = useCopy();
  return (
    <Stack gap={6}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0 }}>{heading}</div>
        <Button
          size="compact-xs"
          variant="default"
          aria-label={copyLabel}
          leftSection={copied ? <IconCheck size={12} /> : <IconCopy size={12} />}
          style={{ flexShrink: 0 }}
          onClick={() => void copy(code)}
        >
          {copied ? 'Copied!' : 'Copy'}
        </Button>
      </Group>
      <Code block tabIndex={0} aria-label={label} style={{ fontSize: 12.5, whiteSpace: 'pre', overflowX: 'auto' }}>
        {code}
      </Code>
    </Stack>
  );
}

/**
 * The project's quickstart (issue 32), first on its Overview and where creating a project lands: the
 * kind of app, the values it needs as a .env block, three steps of code for that kind, and a test of
 * the project's hosted sign-in. The chosen kind is remembered per project in this browser.
 */
export function ProjectQuickstart({ project }: { project: Project }) {
  const narrow = useMediaQuery('(max-width: 36em)');
  const [stored, setKind] = useLocalStorage<string>({ key: `quickstart-kind:${project.id}`, defaultValue: 'spa', getInitialValueInEffect: false });
  const kind: AppKind = isAppKind(stored) ? stored : 'spa';
  const values = quickstartValues(project);
  const steps = quickstartSteps(kind, values);
  const [starting, setStarting] = useState(false);

  const testSignIn = async () => {
    setStarting(true);
    try {
      window.location.assign(await startTestSignIn(project));
    } catch (error) {
      setStarting(false);
      notify.error(`Could not start the test sign-in: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="quickstart-heading">
      <Group justify="space-between" align="flex-start" gap="sm" mb="xs">
        <Group gap="xs" wrap="nowrap">
          <ThemeIcon variant="light" radius="md" aria-hidden>
            <IconRocket size={18} />
          </ThemeIcon>
          <Title order={2} fz="md" id="quickstart-heading">
            Quickstart
          </Title>
        </Group>
        <Button leftSection={<IconPlayerPlay size={16} />} onClick={() => void testSignIn()} loading={starting} variant="light">
          Test sign-in
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Pick what you are building: the values to copy and three steps of code follow. &ldquo;Test sign-in&rdquo; opens this project&apos;s hosted sign-in and shows the
        claims of the tokens it gives.
      </Text>
      <SegmentedControl
        aria-label="Kind of app"
        data={APP_KINDS.map(({ value, label }) => ({ value, label }))}
        value={kind}
        onChange={setKind}
        orientation={narrow ? 'vertical' : 'horizontal'}
        fullWidth
        mb="md"
      />
      <Stack gap="lg">
        <section aria-label="Environment variables">
          <CopyBlock
            heading={
              <Group gap="xs">
                <Text fw={600} size="sm">
                  .env
                </Text>
                {project.environment === 'development' && (
                  <Badge variant="light" color="teal" size="sm">
                    localhost:* redirects
                  </Badge>
                )}
              </Group>
            }
            code={envBlock(kind, values)}
            copyLabel="Copy .env"
            label=".env"
          />
        </section>
        <Stack gap="lg" component="ol" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label="Steps">
          {steps.map((step, index) => (
            <li key={step.title}>
              <CopyBlock
                heading={
                  <>
                    <Text fw={600} size="sm">
                      {index + 1}. {step.title}
                    </Text>
                    <Text size="sm" c="dimmed" mt={2}>
                      {step.description}
                    </Text>
                  </>
                }
                code={step.code}
                copyLabel={`Copy step ${index + 1}`}
                label={`Step ${index + 1} code`}
              />
            </li>
          ))}
        </Stack>
        {project.environment !== 'development' && (
          <Alert variant="light" color="gray" title="Redirect URIs are exact here">
            A {project.environment} project compares redirect URIs exactly. Development projects may register http://localhost:*/callback to accept any local port.
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
