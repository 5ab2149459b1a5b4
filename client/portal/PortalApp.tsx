import { useState } from 'react';
import { Alert, Badge, Button, Card, Container, Group, List, Loader, PasswordInput, SegmentedControl, Stack, TagsInput, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconPlug, IconShieldCheck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Route, Routes, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { SsoConnection } from '../../shared/schemas/sso';
import { CopyField } from '../components/CopyField';
import { ApiError } from '../lib/api-client';
import { IDP_GUIDES, VALUE_LABELS, type IdpGuide } from './idpGuides';
import { portalApi, type PortalConnectionInput, type PortalOverview, type ScimToken } from './portalApi';

const OVERVIEW_KEY = ['admin-portal', 'overview'] as const;

const detailOf = (error: unknown, fallback: string) => (error instanceof ApiError && error.status < 500 && error.detail ? error.detail : fallback);

/**
 * The self-serve setup portal (/portal): an organization's IT admin, with a one-time setup link and no
 * account, sets up that organization's enterprise SSO. Its own minimal frame: no dashboard navigation.
 */
export function PortalApp() {
  return (
    <Container size="md" py="lg" px="sm">
      <Routes>
        <Route path=":token" element={<OpenLink />} />
        <Route index element={<PortalHome />} />
      </Routes>
    </Container>
  );
}

/** The link itself: a button spends it (link previews and mail scanners that only fetch the page do not). */
function OpenLink() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const open = useMutation({ mutationFn: () => portalApi.open(token) });
  return (
    <Card withBorder radius="md" padding="lg" maw={520} mx="auto" mt="xl">
      <Stack gap="md">
        <Group gap="xs">
          <IconShieldCheck size={22} />
          <Title order={1} fz="h3">
            Single sign-on setup
          </Title>
        </Group>
        <Text size="sm">You were sent this link to connect your organization to its identity provider (Okta, Microsoft Entra ID, Google Workspace or another SAML or OpenID Connect IdP). The link opens once and then stays open in this browser for an hour.</Text>
        {open.isError && (
          <Alert color="red" variant="light" role="alert" title="This link cannot be opened" icon={<IconAlertTriangle size={18} />}>
            {detailOf(open.error, 'The setup portal could not be opened. Try again later.')}
          </Alert>
        )}
        {!open.isError && (
          <Button onClick={() => open.mutate(undefined, { onSuccess: () => navigate('/portal', { replace: true }) })} loading={open.isPending}>
            Start the setup
          </Button>
        )}
      </Stack>
    </Card>
  );
}

function PortalHome() {
  const overview = useQuery({ queryKey: OVERVIEW_KEY, queryFn: portalApi.overview, retry: false });
  if (overview.isPending) return <Loader aria-label="Loading the setup portal" />;
  if (overview.isError) {
    return (
      <Alert color="red" variant="light" role="alert" title="The setup portal is closed" maw={520} mx="auto" mt="xl">
        {detailOf(overview.error, 'The setup portal could not be loaded. Try again later.')}
      </Alert>
    );
  }
  return <Portal overview={overview.data} />;
}

function Portal({ overview }: { overview: PortalOverview }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: OVERVIEW_KEY });
  const [adding, setAdding] = useState(overview.connections.length === 0);
  const [leaving, setLeaving] = useState(false);
  const leave = async () => {
    setLeaving(true);
    await portalApi.close().catch(() => undefined);
    queryClient.removeQueries({ queryKey: OVERVIEW_KEY });
    await refresh();
  };
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div style={{ minWidth: 0, flex: '1 1 260px' }}>
          <Title order={1} fz="h2" style={{ overflowWrap: 'anywhere' }}>
            Single sign-on for {overview.organization.name}
          </Title>
          <Text size="sm" c="dimmed">
            This setup session ends at {new Date(overview.expires_at).toLocaleString()}.
          </Text>
        </div>
        <Button variant="default" size="xs" onClick={() => void leave()} loading={leaving}>
          Leave the setup
        </Button>
      </Group>
      <TestResult />
      {overview.connections.map((connection) => (
        <ConnectionCard key={connection.id} connection={connection} onChanged={refresh} />
      ))}
      {adding ? (
        <AddConnection overview={overview} onCancel={overview.connections.length > 0 ? () => setAdding(false) : undefined} onAdded={() => void refresh().then(() => setAdding(false))} />
      ) : (
        <Button variant="light" leftSection={<IconPlug size={16} />} onClick={() => setAdding(true)} style={{ alignSelf: 'flex-start' }}>
          Add a connection
        </Button>
      )}
    </Stack>
  );
}

/** Back from a test at the IdP (?test=ok|failed): what it sent. */
function TestResult() {
  const [params] = useSearchParams();
  const tested = params.get('test');
  const result = useQuery({ queryKey: ['admin-portal', 'test-result'], queryFn: portalApi.testResult, enabled: tested !== null, retry: false });
  if (!tested || !result.data?.result) return null;
  const r = result.data.result;
  return (
    <Alert color={r.ok ? 'teal' : 'red'} variant="light" title={r.ok ? 'The test sign-in worked' : 'The test sign-in failed'} role="status" icon={r.ok ? <IconCheck size={18} /> : <IconAlertTriangle size={18} />}>
      {r.ok ? (
        <Stack gap={4}>
          <Text size="sm">Your identity provider sent these attributes (nobody was signed in or added):</Text>
          <Text size="sm" aria-label="Received e-mail" style={{ overflowWrap: 'anywhere' }}>
            E-mail: <b>{r.email}</b>
          </Text>
          <Text size="sm">
            First name: <b>{r.first_name ?? '—'}</b> · Last name: <b>{r.last_name ?? '—'}</b>
          </Text>
          <Text size="sm">Groups: {r.groups.length ? r.groups.join(', ') : '—'}</Text>
          {!r.domain_verified && <Text size="sm" c="orange">This address&rsquo;s domain is not verified for the connection yet: people sign in once it is.</Text>}
        </Stack>
      ) : (
        <Text size="sm">{r.error}</Text>
      )}
    </Alert>
  );
}

function GuideSteps({ guide, values }: { guide: IdpGuide; values: PortalOverview['next_connection'] }) {
  return (
    <List type="ordered" spacing="sm" size="sm" aria-label={`${guide.label} steps`}>
      {guide.steps.map((step) => (
        <List.Item key={step.text}>
          <Stack gap={6}>
            <Text size="sm">{step.text}</Text>
            {step.values?.map((value) => <CopyField key={value} label={VALUE_LABELS[value]} value={values[value]} copyLabel={`Copy ${VALUE_LABELS[value]}`} wrap />)}
          </Stack>
        </List.Item>
      ))}
    </List>
  );
}

function AddConnection({ overview, onCancel, onAdded }: { overview: PortalOverview; onCancel?: () => void; onAdded(): void }) {
  const [guideKey, setGuideKey] = useState<IdpGuide['key']>('okta');
  const guide = IDP_GUIDES.find((entry) => entry.key === guideKey)!;
  const [kind, setKind] = useState<'saml' | 'oidc'>('saml');
  const protocol = guide.protocol === 'either' ? kind : guide.protocol;
  const [name, setName] = useState('');
  const [metadataXml, setMetadataXml] = useState('');
  const [metadataUrl, setMetadataUrl] = useState('');
  const [issuer, setIssuer] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [domains, setDomains] = useState<string[]>([]);
  const create = useMutation({ mutationFn: (input: PortalConnectionInput) => portalApi.create(input), onSuccess: onAdded });
  const idpComplete = protocol === 'saml' ? metadataXml.trim() !== '' || metadataUrl.trim() !== '' : issuer.trim() !== '' && clientId.trim() !== '' && clientSecret !== '';
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    create.mutate({
      type: protocol,
      name: name.trim() || guide.label,
      domains,
      ...(protocol === 'saml'
        ? { saml: metadataXml.trim() ? { idp_metadata_xml: metadataXml.trim() } : { idp_metadata_url: metadataUrl.trim() } }
        : { oidc: { issuer: issuer.trim(), client_id: clientId.trim(), client_secret: clientSecret } }),
    });
  };
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="portal-add-heading">
      <Stack gap="md">
        <Title order={2} fz="h4" id="portal-add-heading">
          Add a connection
        </Title>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="portal-guide-label">
            Your identity provider
          </Text>
          <SegmentedControl
            aria-labelledby="portal-guide-label"
            value={guideKey}
            onChange={(value) => setGuideKey(value as IdpGuide['key'])}
            data={IDP_GUIDES.map((entry) => ({ value: entry.key, label: entry.label }))}
            orientation="vertical"
            fullWidth
            hiddenFrom="sm"
          />
          <SegmentedControl
            aria-labelledby="portal-guide-label"
            value={guideKey}
            onChange={(value) => setGuideKey(value as IdpGuide['key'])}
            data={IDP_GUIDES.map((entry) => ({ value: entry.key, label: entry.label }))}
            visibleFrom="sm"
          />
        </Stack>
        <GuideSteps guide={guide} values={overview.next_connection} />
        <Text size="sm" c="dimmed">
          <b>User provisioning (SCIM), once the connection is added:</b> {guide.scim}
        </Text>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            {create.isError && (
              <Alert color="red" variant="light" role="alert" title="The connection was not added">
                {detailOf(create.error, 'The connection could not be added. Try again.')}
              </Alert>
            )}
            <TextInput label="Name" description={`Such as “${overview.organization.name} ${guide.label}”.`} value={name} onChange={(event) => setName(event.currentTarget.value)} maxLength={100} />
            {guide.protocol === 'either' && (
              <SegmentedControl
                aria-label="Protocol"
                value={kind}
                onChange={(value) => setKind(value as 'saml' | 'oidc')}
                data={[
                  { value: 'saml', label: 'SAML 2.0' },
                  { value: 'oidc', label: 'OpenID Connect' },
                ]}
              />
            )}
            {protocol === 'saml' ? (
              <>
                <Textarea
                  label="IdP metadata XML"
                  description="Paste the whole metadata file of your identity provider."
                  value={metadataXml}
                  onChange={(event) => setMetadataXml(event.currentTarget.value)}
                  autosize
                  minRows={3}
                  maxRows={10}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
                />
                <TextInput label="…or its metadata URL" description="An https address this service fetches the metadata from." value={metadataUrl} onChange={(event) => setMetadataUrl(event.currentTarget.value)} disabled={metadataXml.trim() !== ''} />
              </>
            ) : (
              <>
                <TextInput label="Issuer" value={issuer} onChange={(event) => setIssuer(event.currentTarget.value)} placeholder="https://login.example.com" />
                <TextInput label="Client ID" value={clientId} onChange={(event) => setClientId(event.currentTarget.value)} />
                <PasswordInput label="Client secret" description="Stored sealed and never shown again." value={clientSecret} onChange={(event) => setClientSecret(event.currentTarget.value)} />
              </>
            )}
            <TagsInput label="Domains" description="Your company's e-mail domains, such as acme.com (press Enter after each). Each is verified with a DNS record." value={domains} onChange={setDomains} splitChars={[',', ' ']} />
            <Group justify="flex-end" gap="sm">
              {onCancel && (
                <Button variant="default" onClick={onCancel}>
                  Cancel
                </Button>
              )}
              <Button type="submit" disabled={!idpComplete} loading={create.isPending} leftSection={<IconPlug size={16} />}>
                Add connection
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}

function ConnectionCard({ connection, onChanged }: { connection: SsoConnection; onChanged(): Promise<unknown> }) {
  const [error, setError] = useState<string | null>(null);
  const [token, setToken] = useState<ScimToken | null>(null);
  const [editing, setEditing] = useState(false);
  const [dnsNotice, setDnsNotice] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: async (action: 'verify' | 'scim' | 'test' | 'delete') => {
      if (action === 'verify') {
        const checked = await portalApi.verifyDomains(connection.id);
        const missing = checked.domains.filter((domain) => !domain.verified).map((domain) => domain.domain);
        return setDnsNotice(missing.length ? `The TXT record was not found yet for ${missing.join(', ')}. DNS changes can take a few minutes to show: check again later.` : 'Every domain is verified.');
      }
      if (action === 'scim') return setToken(await portalApi.createScimToken(connection.id));
      if (action === 'test') return window.location.assign((await portalApi.startTest(connection.id)).authorization_url);
      return portalApi.remove(connection.id);
    },
    onMutate: () => {
      setError(null);
      setDnsNotice(null);
    },
    onSuccess: () => void onChanged(),
    onError: (failure) => setError(detailOf(failure, 'That did not work. Try again.')),
  });
  const pending = connection.domains.filter((domain) => !domain.verified);
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label={connection.name}>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Title order={2} fz="h4" style={{ overflowWrap: 'anywhere' }}>
              {connection.name}
            </Title>
            <Badge variant="light">{connection.type === 'saml' ? 'SAML' : 'OIDC'}</Badge>
          </Group>
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={() => setEditing(!editing)}>
              {editing ? 'Close' : 'Edit'}
            </Button>
            <Button size="xs" color="red" variant="subtle" onClick={() => window.confirm(`Delete ${connection.name}?`) && run.mutate('delete')}>
              Delete
            </Button>
          </Group>
        </Group>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        {editing && <EditConnection connection={connection} onSaved={() => void onChanged().then(() => setEditing(false))} />}
        <Stack gap="xs">
          <Text fw={600} size="sm">
            Values for your identity provider
          </Text>
          {connection.saml ? (
            <>
              <CopyField label={VALUE_LABELS.sp_entity_id} value={connection.saml.sp_entity_id} copyLabel={`Copy ${VALUE_LABELS.sp_entity_id}`} wrap />
              <CopyField label={VALUE_LABELS.acs_url} value={connection.saml.acs_url} copyLabel={`Copy ${VALUE_LABELS.acs_url}`} wrap />
              <CopyField label={VALUE_LABELS.sp_metadata_url} value={connection.saml.sp_metadata_url} copyLabel={`Copy ${VALUE_LABELS.sp_metadata_url}`} wrap />
            </>
          ) : (
            connection.oidc && <CopyField label={VALUE_LABELS.oidc_callback_url} value={connection.oidc.callback_url} copyLabel={`Copy ${VALUE_LABELS.oidc_callback_url}`} wrap />
          )}
        </Stack>
        <Stack gap="xs" aria-label="Domains">
          <Text fw={600} size="sm">
            Domains
          </Text>
          {connection.domains.length === 0 && (
            <Text size="sm" c="dimmed">
              No domains yet: add your company&rsquo;s e-mail domains with Edit.
            </Text>
          )}
          {connection.domains.map((domain) => (
            <Stack key={domain.domain} gap={4}>
              <Group gap="xs">
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {domain.domain}
                </Text>
                <Badge size="sm" variant="light" color={domain.verified ? 'teal' : 'orange'}>
                  {domain.verified ? 'Verified' : 'Not verified'}
                </Badge>
              </Group>
              {!domain.verified && (
                <>
                  <Text size="xs" c="dimmed">
                    Add this TXT record at your DNS provider, then click Check:
                  </Text>
                  <CopyField label="TXT record name" value={domain.txt_record_name} copyLabel={`Copy the TXT record name of ${domain.domain}`} wrap />
                  <CopyField label="TXT record value" value={domain.txt_record_value} copyLabel={`Copy the TXT record value of ${domain.domain}`} wrap />
                </>
              )}
            </Stack>
          ))}
          {dnsNotice && (
            <Text size="sm" role="status">
              {dnsNotice}
            </Text>
          )}
          {pending.length > 0 && (
            <Button size="xs" variant="light" onClick={() => run.mutate('verify')} loading={run.isPending && run.variables === 'verify'} style={{ alignSelf: 'flex-start' }}>
              Check the DNS records
            </Button>
          )}
        </Stack>
        <Stack gap="xs">
          <Text fw={600} size="sm">
            Test the connection
          </Text>
          <Text size="xs" c="dimmed">
            Sign in with your identity provider: you come back here with what it sent. Nobody is signed in or added.
          </Text>
          <Button size="xs" variant="light" onClick={() => run.mutate('test')} loading={run.isPending && run.variables === 'test'} style={{ alignSelf: 'flex-start' }}>
            Sign in with your IdP
          </Button>
        </Stack>
        <Stack gap="xs">
          <Text fw={600} size="sm">
            User provisioning (SCIM)
          </Text>
          <CopyField label="SCIM base URL" value={connection.scim.base_url} copyLabel="Copy the SCIM base URL" wrap />
          {token ? (
            <Alert color="orange" variant="light" title="Your SCIM token, shown only once" icon={<IconAlertTriangle size={18} />}>
              <Stack gap="xs">
                <CopyField value={token.token} copyLabel="Copy the SCIM token" wrap />
                <Text size="xs">Paste it into your identity provider&rsquo;s provisioning settings now: it is not shown again.</Text>
              </Stack>
            </Alert>
          ) : (
            <Button size="xs" variant="light" onClick={() => run.mutate('scim')} loading={run.isPending && run.variables === 'scim'} style={{ alignSelf: 'flex-start' }}>
              {connection.scim.enabled ? 'Replace the SCIM token' : 'Create a SCIM token'}
            </Button>
          )}
        </Stack>
      </Stack>
    </Card>
  );
}

function EditConnection({ connection, onSaved }: { connection: SsoConnection; onSaved(): void }) {
  const [name, setName] = useState(connection.name);
  const [domains, setDomains] = useState(connection.domains.map((domain) => domain.domain));
  const [metadataXml, setMetadataXml] = useState('');
  const save = useMutation({
    mutationFn: () => portalApi.update(connection.id, { name: name.trim(), domains, ...(metadataXml.trim() && { saml: { idp_metadata_xml: metadataXml.trim() } }) }),
    onSuccess: onSaved,
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
      noValidate
    >
      <Stack gap="sm">
        {save.isError && (
          <Alert color="red" variant="light" role="alert" title="Not saved">
            {detailOf(save.error, 'The connection could not be saved. Try again.')}
          </Alert>
        )}
        <TextInput label="Name" value={name} onChange={(event) => setName(event.currentTarget.value)} maxLength={100} />
        <TagsInput label="Domains" description="Press Enter after each." value={domains} onChange={setDomains} splitChars={[',', ' ']} />
        {connection.type === 'saml' && <Textarea label="New IdP metadata XML (optional)" value={metadataXml} onChange={(event) => setMetadataXml(event.currentTarget.value)} autosize minRows={2} maxRows={8} />}
        <Button type="submit" size="xs" loading={save.isPending} disabled={!name.trim()} style={{ alignSelf: 'flex-start' }}>
          Save
        </Button>
      </Stack>
    </form>
  );
}
