import { Button, Checkbox, Group, Input, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CreateWebhookInputSchema, WEBHOOK_EVENT_TYPES, type Webhook } from '../../../shared/schemas/webhooks';
import { resolver } from '../../forms';
import { readableDetail } from '../../lib/readable-errors';

export type WebhookFormValues = { url: string; description: string; event_types: string[]; enabled: boolean };

const valuesOf = (webhook: Webhook | null): WebhookFormValues => ({
  url: webhook?.url ?? '',
  description: webhook?.description ?? '',
  event_types: webhook ? [...webhook.event_types] : [],
  enabled: webhook?.enabled ?? true,
});

/** The field a refusal's detail is about (`url must be …`, `Choose at least one event type`), when it names one. */
export function webhookFieldOfDetail(detail: string): keyof WebhookFormValues | null {
  if (detail.startsWith('url ')) return 'url';
  if (detail.startsWith('description ')) return 'description';
  if (/event.?type/i.test(detail)) return 'event_types';
  if (detail.startsWith('enabled ')) return 'enabled';
  return null;
}

interface WebhookFormProps {
  webhook: Webhook | null;
  saving: boolean;
  /** Saves; answers the refusal's detail to show under its field, or null when done (or shown elsewhere). */
  onSave(values: WebhookFormValues): Promise<string | null>;
  onCancel(): void;
}

/** Where a webhook sends (URL), a note for the owner, which events it gets, and whether it is on. */
export function WebhookForm({ webhook, saving, onSave, onCancel }: WebhookFormProps) {
  const form = useForm<WebhookFormValues>({ mode: 'controlled', initialValues: valuesOf(webhook), validate: resolver(CreateWebhookInputSchema) });

  const onSubmit = form.onSubmit(async (values) => {
    const detail = await onSave(values);
    const field = detail ? webhookFieldOfDetail(detail) : null;
    if (field) form.setFieldError(field, readableDetail(detail ?? ''));
  });

  const chosen = form.values.event_types;
  const all = chosen.length === WEBHOOK_EVENT_TYPES.length;
  const some = chosen.length > 0 && !all;
  const eventsError = form.errors.event_types;

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Endpoint URL"
          required
          placeholder="https://example.com/webhooks/auth"
          description="Events are POSTed here as JSON, signed with the Standard Webhooks headers."
          autoComplete="off"
          {...form.getInputProps('url')}
        />
        <TextInput label="Description" placeholder="Production user sync" {...form.getInputProps('description')} />
        <Input.Wrapper label="Events" description="Which events this endpoint receives." withAsterisk error={eventsError} id="webhook-events">
          <Stack gap="xs" mt="xs">
            <Checkbox
              label="Select all"
              checked={all}
              indeterminate={some}
              onChange={() => form.setFieldValue('event_types', all ? [] : [...WEBHOOK_EVENT_TYPES])}
              styles={{ label: { fontWeight: 600 } }}
            />
            <Checkbox.Group aria-label="Event types" value={chosen} onChange={(value) => form.setFieldValue('event_types', value)}>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing="xs">
                {WEBHOOK_EVENT_TYPES.map((type) => (
                  <Checkbox key={type} value={type} label={type} styles={{ label: { fontFamily: 'var(--mantine-font-family-monospace)' } }} />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
          </Stack>
        </Input.Wrapper>
        <Switch label="Enabled" description="Send events to this endpoint." {...form.getInputProps('enabled', { type: 'checkbox' })} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            {webhook ? 'Save webhook' : 'Add webhook'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
