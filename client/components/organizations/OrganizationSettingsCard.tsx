import { useEffect, useState } from 'react';
import { Alert, Button, Card, Code, Group, JsonInput, Loader, NumberInput, Stack, Switch, Text, Title } from '@mantine/core';
import { CUSTOM_CLAIMS_MAX_BYTES, MAX_ORGANIZATIONS_PER_USER_LIMIT, type OrganizationSettings } from '../../../shared/schemas/organizations';
import type { Project } from '../../../shared/schemas/projects';
import { roleAllows } from '../../../shared/schemas/teams';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { jsonText, parseJsonObject } from './json';

const EXAMPLE = '{\n  "plan": "{{ user.public_metadata.plan }}",\n  "tenant": "{{ org.slug }}"\n}';

/** The project's organization settings: self-service creation, the limit per user, the custom claims of access tokens. */
export function OrganizationSettingsCard({ project }: { project: Project }) {
  const settings = trpc.organizations.settings.useQuery({ id: project.id });
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="organization-settings-heading">
      <Title order={2} fz="md" id="organization-settings-heading">
        Organization settings
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        What your users may do themselves, and what their access tokens carry.
      </Text>
      {settings.isPending ? (
        <Loader size="sm" aria-label="Loading the organization settings" />
      ) : settings.isError ? (
        <Text size="sm" c="red" role="alert">
          {errorMessage(settings.error, 'Could not load the organization settings.')}
        </Text>
      ) : (
        <SettingsForm project={project} settings={settings.data} manages={roleAllows(project.role, 'admin')} />
      )}
    </Card>
  );
}

function SettingsForm({ project, settings, manages }: { project: Project; settings: OrganizationSettings; manages: boolean }) {
  const update = trpc.organizations.updateSettings.useMutation();
  const utils = trpc.useUtils();
  const [selfService, setSelfService] = useState(settings.self_service_creation);
  const [max, setMax] = useState<number | string>(settings.max_organizations_per_user);
  const [claims, setClaims] = useState(jsonText(settings.custom_claims));
  const [claimsError, setClaimsError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setSelfService(settings.self_service_creation);
    setMax(settings.max_organizations_per_user);
    setClaims(jsonText(settings.custom_claims));
  }, [settings]);

  const maxError =
    typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > MAX_ORGANIZATIONS_PER_USER_LIMIT
      ? `Enter a whole number between 1 and ${MAX_ORGANIZATIONS_PER_USER_LIMIT}`
      : null;

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    const parsed = parseJsonObject(claims, { name: 'Custom claims', maxBytes: CUSTOM_CLAIMS_MAX_BYTES, empty: null });
    setClaimsError(parsed.error);
    if (parsed.error || maxError) return;
    try {
      await update.mutateAsync({ id: project.id, self_service_creation: selfService, max_organizations_per_user: max as number, custom_claims: parsed.value });
      notify.success('Organization settings saved');
      await utils.organizations.settings.invalidate({ id: project.id });
    } catch (failure) {
      setError(errorMessage(failure, 'Could not save the organization settings'));
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Organization settings">
      <Stack gap="md">
        <Switch
          label="Users may create organizations"
          description="On your hosted pages and with POST /public/api/v1/me/organizations; they become its org:admin"
          checked={selfService}
          disabled={!manages}
          onChange={(event) => setSelfService(event.currentTarget.checked)}
        />
        <NumberInput
          label="Organizations per user"
          description="How many organizations one user may belong to"
          min={1}
          max={MAX_ORGANIZATIONS_PER_USER_LIMIT}
          allowDecimal={false}
          w={260}
          value={max}
          onChange={setMax}
          readOnly={!manages}
          error={maxError}
        />
        <JsonInput
          label="Custom claims"
          description={
            <>
              A JSON object added to access tokens. Strings are templates over <Code>user</Code> and <Code>org</Code>, such as <Code>{'{{ org.slug }}'}</Code>. Leave empty for none.
            </>
          }
          placeholder={EXAMPLE}
          autosize
          minRows={4}
          maxRows={16}
          value={claims}
          onChange={(value) => {
            setClaims(value);
            setClaimsError(null);
          }}
          error={claimsError}
          validationError="Custom claims is not valid JSON"
          readOnly={!manages}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        {error && (
          <Alert color="red" variant="light" role="alert" title="The settings were not saved">
            {error}
          </Alert>
        )}
        {manages && (
          <Group>
            <Button type="submit" loading={update.isPending}>
              Save settings
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
