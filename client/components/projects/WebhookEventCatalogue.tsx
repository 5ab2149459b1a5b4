import { Fragment } from 'react';
import { Accordion, Card, Code, Stack, Text, Title } from '@mantine/core';
import { sampleWebhookEventBody, WEBHOOK_EVENT_CATALOGUE_ENTRIES } from '../../../shared/schemas/webhook-events';

/** Every event a webhook can subscribe to: when it is sent, and a sample of the body your endpoint gets. */
export function WebhookEventCatalogue() {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="webhook-events-heading">
      <Title order={3} fz="md" id="webhook-events-heading">
        Event catalogue
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        Each request&rsquo;s body is <Code>{'{type, timestamp, data}'}</Code>. Open an event to see when it is sent and a sample body.
      </Text>
      <Accordion variant="separated" radius="md" chevronPosition="right">
        {WEBHOOK_EVENT_CATALOGUE_ENTRIES.map((entry) => (
          <Accordion.Item key={entry.type} value={entry.type}>
            <Accordion.Control>
              <Text size="sm" ff="monospace" fw={600} style={{ overflowWrap: 'break-word' }}>
                <Breakable name={entry.type} />
              </Text>
            </Accordion.Control>
            <Accordion.Panel>
              <Stack gap="xs">
                <Text size="sm">
                  <WithCode text={entry.description} />
                </Text>
                <Code
                  block
                  tabIndex={0}
                  fz="xs"
                  aria-label={`Sample body of ${entry.type}`}
                  style={{ maxHeight: 360, overflow: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                >
                  {JSON.stringify(sampleWebhookEventBody(entry.type), null, 2)}
                </Code>
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Card>
  );
}

/** The catalogue's descriptions mark names with `backticks`: those are shown as code. */
function WithCode({ text }: { text: string }) {
  return text.split('`').map((part, index) => <Fragment key={index}>{index % 2 === 1 ? <Code>{part}</Code> : part}</Fragment>);
}

/** An event's name, which may break after its dots and underscores (organization_membership.<wbr>created) rather than inside a word. */
function Breakable({ name }: { name: string }) {
  return name.split(/(?<=[._])/).map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}
