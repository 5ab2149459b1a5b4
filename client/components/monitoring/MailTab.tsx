import { Badge, Button, Stack, Text } from '@mantine/core';
import { MAIL_DELIVERY_ERRORS, type MailDelivery } from '../../../shared/schemas/mail';
import { formatDateTime } from '../../lib/format';
import { MONITOR_TEXTS } from '../../messages';
import { actionState, useMonitor } from './context';
import { ListShell, NOWRAP, type Column } from './ListShell';
import type { ListTabProps } from './ListTabProps';
import { FilterSelect, ListToolbar } from './ListToolbar';
import type { MailFilters } from './source';

const STATUSES = [
  { value: 'pending', label: 'Pending' },
  { value: 'sent', label: 'Sent' },
  { value: 'failed', label: 'Failed' },
];
const STATUS_COLORS: Record<MailDelivery['status'], string> = { pending: 'yellow', sent: 'teal', failed: 'red' };

/** 'password_reset' → 'Password reset', 'newSignInMail' → 'New sign in'. */
export function mailKindLabel(kind: string): string {
  const words = kind
    .replace(/Mail$/, '')
    .replace(/^test:/, 'test ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const columns: Column<MailDelivery>[] = [
  {
    header: 'Queued',
    cell: (mail) => (
      <Text size="sm" className={NOWRAP}>
        {formatDateTime(mail.created_at)}
      </Text>
    ),
  },
  {
    header: 'Recipient',
    cell: (mail) => (
      <Stack gap={0} style={{ overflowWrap: 'anywhere' }}>
        <Text size="sm" fw={600}>
          {mail.recipient}
        </Text>
        <Text size="xs" c="dimmed">
          {mailKindLabel(mail.kind)}
        </Text>
      </Stack>
    ),
  },
  {
    header: 'Status',
    cell: (mail) => (
      <Badge variant="light" color={STATUS_COLORS[mail.status]}>
        {mail.status === 'pending' ? 'Pending' : mail.status === 'sent' ? 'Sent' : 'Failed'}
      </Badge>
    ),
  },
  { header: 'Attempts', cell: (mail) => <Text size="sm">{mail.attempts}</Text> },
  {
    header: 'Last error',
    cell: (mail) =>
      mail.last_error_category ? (
        <Text size="sm" title={MAIL_DELIVERY_ERRORS[mail.last_error_category]}>
          {MAIL_DELIVERY_ERRORS[mail.last_error_category]}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ),
  },
  {
    header: 'Sent',
    cell: (mail) => (
      <Text size="sm" className={NOWRAP} c={mail.sent_at ? undefined : 'dimmed'}>
        {mail.sent_at ? formatDateTime(mail.sent_at) : mail.next_attempt_at ? `Next try ${formatDateTime(mail.next_attempt_at)}` : '—'}
      </Text>
    ),
  },
  { header: 'Subject', cell: (mail) => <Text size="sm">{mail.subject}</Text>, inDetails: true },
];

/** Every mail of the scope, newest first: whether it went out, how often it was tried and why it failed; Resend where its message is kept. */
export function MailTab({ page, perPage, onPageChange, filters, onFilterChange }: ListTabProps) {
  const { source, actions, pending, run } = useMonitor();
  const { status } = filters as MailFilters;
  const query = source.useMail({ page, per_page: perPage, status });

  return (
    <>
      <ListToolbar>
        <FilterSelect label="Status" placeholder="All statuses" data={STATUSES} value={status} onChange={(value) => onFilterChange('status', value)} />
      </ListToolbar>
      <ListShell
        label="Mail"
        query={query}
        items={(data) => data.deliveries}
        itemKey={(mail) => mail.id}
        columns={columns}
        page={page}
        perPage={perPage}
        onPageChange={onPageChange}
        empty={status ? 'No mails match this filter.' : 'No mails sent yet.'}
        minWidth={820}
        actions={(mail) =>
          mail.resendable ? (
            <Button
              size="xs"
              variant="default"
              {...actionState(pending, mail.id, 'resend')}
              onClick={() =>
                void run({ id: mail.id, action: 'resend' }, () => actions.resendMail(mail.id), {
                  success: MONITOR_TEXTS.mailResent,
                  failure: MONITOR_TEXTS.mailResendFailed,
                })
              }
            >
              Resend
            </Button>
          ) : null
        }
      />
    </>
  );
}
