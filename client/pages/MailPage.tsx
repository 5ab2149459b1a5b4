import { useState } from 'react';
import { Alert, Anchor, Badge, Card, Container, Grid, Group, Loader, ScrollArea, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { LocalMail } from '../../shared/schemas/mail';
import { PageHeader } from '../components/PageHeader';
import { useLocalOutbox } from '../components/mail/useLocalOutbox';
import { errorMessage } from '../lib/errors';
import { formatDateTime } from '../lib/format';
import { trpc } from '../lib/trpc';

const LINK = /https?:\/\/[^\s<>"]+/g;

/**
 * The mail's HTML as a document of its own in a sandboxed frame: no scripts, no access to this page;
 * its links open in a new tab (a frame may not show this app, which refuses to be framed).
 */
function htmlDocument(html: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><base target="_blank"></head><body>${html}</body></html>`;
}

function MailMessage({ id }: { id: string }) {
  const message = trpc.localMail.message.useQuery({ id }, { retry: false });
  if (message.isPending) return <Loader size="sm" />;
  if (message.error) return <Alert color="red">{errorMessage(message.error, 'Failed to load the mail')}</Alert>;
  const mail = message.data;
  const links = [...new Set(mail.text.match(LINK) ?? [])];
  return (
    <Stack gap="sm">
      <Title order={2} fz="lg">
        {mail.subject}
      </Title>
      <Text size="sm" c="dimmed">
        To {mail.to} · {formatDateTime(mail.date)}
      </Text>
      {links.length > 0 && (
        <Stack gap={4} aria-label="Links in this mail">
          {links.map((link) => (
            <Anchor key={link} href={link} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {link}
            </Anchor>
          ))}
        </Stack>
      )}
      {mail.html && (
        <iframe
          title={`HTML of ${mail.subject}`}
          sandbox="allow-popups allow-popups-to-escape-sandbox"
          srcDoc={htmlDocument(mail.html)}
          style={{ width: '100%', height: 420, border: '1px solid var(--mantine-color-default-border)', borderRadius: 8, background: '#fff' }}
        />
      )}
      <Text component="pre" size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', margin: 0 }} aria-label="Text of this mail">
        {mail.text}
      </Text>
    </Stack>
  );
}

function MailList({ mails, selected, onSelect }: { mails: LocalMail[]; selected: string | null; onSelect: (id: string) => void }) {
  return (
    <Stack gap={4} role="list" aria-label="Mails">
      {mails.map((mail) => (
        <UnstyledButton
          key={mail.id}
          role="listitem"
          aria-current={mail.id === selected}
          onClick={() => onSelect(mail.id)}
          p="xs"
          style={{ borderRadius: 6, background: mail.id === selected ? 'var(--mantine-color-default-hover)' : undefined }}
        >
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm" fw={600} lineClamp={1}>
              {mail.subject}
            </Text>
            {mail.status !== 'sent' && (
              <Badge size="xs" variant="light" color={mail.status === 'failed' ? 'red' : 'yellow'}>
                {mail.status}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed" lineClamp={1}>
            {mail.to} · {formatDateTime(mail.date)}
          </Text>
        </UnstyledButton>
      ))}
    </Stack>
  );
}

/**
 * The local demo's Mail page: what the server wrote to DATA_DIR/outbox because no SMTP server is set
 * up, newest first, so a new developer finds the verification link without a terminal. The server
 * answers only in the local demo, and only to an admin or a browser on its own machine.
 */
export function MailPage() {
  const { query } = useLocalOutbox(true);
  const [selected, setSelected] = useState<string | null>(null);
  const mails = query.data?.mails ?? [];
  const current = selected ?? mails[0]?.id ?? null;

  return (
    <Container size="lg" py="xl">
      <PageHeader title="Mail" description="The local demo's outbox: every mail the server wrote to DATA_DIR/outbox, newest first." />
      {query.isPending ? (
        <Loader />
      ) : query.error ? (
        <Alert color="gray" icon={<IconInfoCircle size={18} />}>
          {errorMessage(query.error, 'Failed to load the outbox')}
        </Alert>
      ) : mails.length === 0 ? (
        <Text c="dimmed">No mails yet. Sign up, and the verification mail shows here.</Text>
      ) : (
        <Grid gutter="lg">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Card withBorder radius="md" padding="xs">
              <ScrollArea.Autosize mah={600}>
                <MailList mails={mails} selected={current} onSelect={setSelected} />
              </ScrollArea.Autosize>
            </Card>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Card withBorder radius="md" padding="lg">
              {current && <MailMessage id={current} />}
            </Card>
          </Grid.Col>
        </Grid>
      )}
    </Container>
  );
}
