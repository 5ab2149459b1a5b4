import { useId, useState } from 'react';
import { Alert, Anchor, Button, Group, Modal, PasswordInput, SegmentedControl, Select, Stack, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlug } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ORG_MEMBER_ROLE } from '../../../shared/schemas/organizations';
import type { SsoConnection } from '../../../shared/schemas/sso';
import { ApiError, apiErrorMessage } from '../../lib/api-client';
import { notify } from '../../lib/notify';
import { readableDetail } from '../../lib/readable-errors';
import { SettingSwitch } from '../SettingSwitch';
import { AttributeMappingFields, mappingDraftOf, mappingOf } from './AttributeMappingFields';
import { OrganizationSelect } from './OrganizationSelect';
import { useRoleOptions } from '../organizations/useRoleOptions';
import { notifyFailure } from '../projects/states';
import { ssoConnectionKeys, useSsoConnectionsApi, type SsoConnectionInput } from './ssoConnectionsApi';

type Kind = 'saml' | 'oidc';
type MetadataSource = 'xml' | 'url';
export type OrganizationOption = { value: string; label: string };

/** "Add SSO connection": an organization, SAML (the IdP's metadata) or OpenID Connect (issuer, client), its domains and default role. */
export function AddSsoConnectionModal({
  projectId,
  opened,
  organizations,
  organizationsTotal,
  organizationsFailed,
  onClose,
  onCreated,
}: {
  projectId: string;
  opened: boolean;
  organizations: OrganizationOption[];
  /** How many the project has: more than `organizations` holds, and the select searches the server. */
  organizationsTotal: number;
  /** The project's organizations could not be loaded: say so rather than "none yet". */
  organizationsFailed: boolean;
  onClose(): void;
  onCreated(created: SsoConnection): void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Add SSO connection" centered size="lg">
      {opened && (
        <SsoConnectionForm projectId={projectId} organizations={organizations} organizationsTotal={organizationsTotal} organizationsFailed={organizationsFailed} onClose={onClose} onCreated={onCreated} />
      )}
    </Modal>
  );
}

function SsoConnectionForm({
  projectId,
  organizations,
  organizationsTotal,
  organizationsFailed,
  onClose,
  onCreated,
}: {
  projectId: string;
  organizations: OrganizationOption[];
  organizationsTotal: number;
  organizationsFailed: boolean;
  onClose(): void;
  onCreated(created: SsoConnection): void;
}) {
  const api = useSsoConnectionsApi(projectId);
  const queryClient = useQueryClient();
  const roles = useRoleOptions(projectId);
  const [organizationId, setOrganizationId] = useState<string | null>(organizations.length === 1 ? organizations[0]!.value : null);
  const [kind, setKind] = useState<Kind>('saml');
  const [name, setName] = useState('');
  const metadata = useSamlMetadataInput();
  const [issuer, setIssuer] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [domains, setDomains] = useState<string[]>([]);
  const [defaultRole, setDefaultRole] = useState<string>(ORG_MEMBER_ROLE);
  const [enabled, setEnabled] = useState(true);
  const [signRequests, setSignRequests] = useState(false);
  const [requireEncryption, setRequireEncryption] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({ mutationFn: (input: SsoConnectionInput) => api.create(input) });

  const idpComplete = kind === 'saml' ? metadata.input !== null : issuer.trim() !== '' && clientId.trim() !== '' && clientSecret !== '';
  const complete = organizationId !== null && name.trim() !== '' && idpComplete;

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!complete) return;
    setError(null);
    const input: SsoConnectionInput = {
      organization_id: organizationId,
      type: kind,
      name: name.trim(),
      domains,
      default_role: defaultRole,
      enabled,
      ...(kind === 'saml'
        ? {
            saml: {
              ...metadata.input,
              // Off by default: sent only when turned on.
              ...(signRequests && { sign_authn_requests: true }),
              ...(requireEncryption && { require_encrypted_assertions: true }),
            },
          }
        : { oidc: { issuer: issuer.trim(), client_id: clientId.trim(), client_secret: clientSecret } }),
    };
    try {
      const created = await create.mutateAsync(input);
      await queryClient.invalidateQueries({ queryKey: ssoConnectionKeys.list(projectId) });
      onClose();
      onCreated(created);
    } catch (failure) {
      // The server's refusal (metadata it cannot use, a domain taken, an unknown role) stays in the dialog, in words.
      if (failure instanceof ApiError && failure.status < 500 && failure.detail) setError(readableDetail(apiErrorMessage(failure, failure.detail)));
      else notifyFailure('Could not add the SSO connection', failure);
    }
  };

  if (organizations.length === 0) {
    return (
      <Stack gap="md">
        {organizationsFailed ? (
          <Text size="sm" c="red" role="alert">
            Could not load the project&rsquo;s organizations. Close this dialog and try again.
          </Text>
        ) : (
          <Text size="sm">
            A connection belongs to one of the project&rsquo;s organizations, and this project has none yet.{' '}
            <Anchor component={Link} to={`/projects/${encodeURIComponent(projectId)}?tab=organizations`}>
              Create an organization
            </Anchor>{' '}
            first.
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md">
        {error && (
          <Alert color="red" variant="light" role="alert" title="The connection was not added">
            {error}
          </Alert>
        )}
        <OrganizationSelect
          projectId={projectId}
          initial={organizations}
          total={organizationsTotal}
          value={organizationId}
          onChange={setOrganizationId}
          description="The company whose people sign in with this identity provider; they become its members."
        />
        <TextInput label="Name" description="Shown to your team, such as “Acme Okta”." value={name} onChange={(event) => setName(event.currentTarget.value)} required maxLength={100} data-autofocus />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="sso-type-label">
            Protocol
          </Text>
          <SegmentedControl
            aria-labelledby="sso-type-label"
            value={kind}
            onChange={(value) => setKind(value as Kind)}
            data={[
              { value: 'saml', label: 'SAML 2.0' },
              { value: 'oidc', label: 'OpenID Connect' },
            ]}
          />
        </Stack>
        {kind === 'saml' ? (
          <>
            <SamlMetadataFields title="The identity provider’s metadata" {...metadata.fields} />
            <SamlOptionSwitches signRequests={signRequests} onSignRequests={setSignRequests} requireEncryption={requireEncryption} onRequireEncryption={setRequireEncryption} />
          </>
        ) : (
          <>
            <TextInput label="Issuer" description="The IdP’s issuer URL; its discovery document is read from there." value={issuer} onChange={(event) => setIssuer(event.currentTarget.value)} placeholder="https://login.microsoftonline.com/{tenant}/v2.0" required />
            <TextInput label="Client ID" value={clientId} onChange={(event) => setClientId(event.currentTarget.value)} required />
            <PasswordInput label="Client secret" description="Sealed on the server and never shown again." value={clientSecret} onChange={(event) => setClientSecret(event.currentTarget.value)} required />
          </>
        )}
        <TagsInput
          label="Domains"
          description="The e-mail domains the company owns, such as acme.com. Each routes sign-ins once its DNS record is verified. Press Enter after each."
          value={domains}
          onChange={setDomains}
          placeholder={domains.length ? '' : 'acme.com'}
          splitChars={[',', ' ']}
          clearable
        />
        <Select
          label="Default role"
          description="The role of a person's membership when their IdP groups map to none."
          data={roles.options}
          value={defaultRole}
          onChange={(value) => setDefaultRole(value ?? ORG_MEMBER_ROLE)}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        <SettingSwitch label="Enabled" description="Off: the connection is kept but nobody signs in through it." checked={enabled} onChange={setEnabled} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending} disabled={!complete} leftSection={<IconPlug size={16} />}>
            Add connection
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * "Edit connection": its name, domains (the list is replaced: a new domain waits for its DNS proof), default role,
 * attribute mapping, whether SSO is required for its domains and IdP-initiated sign-in is allowed, and the IdP's
 * settings (new metadata; OpenID Connect's issuer, client and a new secret), sent only when changed.
 */
export function EditSsoConnectionModal({ projectId, connection, onClose }: { projectId: string; connection: SsoConnection | null; onClose(): void }) {
  return (
    <Modal opened={connection !== null} onClose={onClose} title="Edit SSO connection" centered size="lg">
      {connection && <EditForm key={connection.updated_at} projectId={projectId} connection={connection} onClose={onClose} />}
    </Modal>
  );
}

function EditForm({ projectId, connection, onClose }: { projectId: string; connection: SsoConnection; onClose(): void }) {
  const api = useSsoConnectionsApi(projectId);
  const queryClient = useQueryClient();
  const roles = useRoleOptions(projectId);
  const [name, setName] = useState(connection.name);
  const [domains, setDomains] = useState(connection.domains.map((domain) => domain.domain));
  const [defaultRole, setDefaultRole] = useState(connection.default_role);
  const [mapping, setMapping] = useState(() => mappingDraftOf(connection.attribute_mapping));
  const [enforce, setEnforce] = useState(connection.enforce);
  const [allowIdpInitiated, setAllowIdpInitiated] = useState(connection.allow_idp_initiated);
  const metadata = useSamlMetadataInput(connection.saml?.idp_metadata_url);
  const [signRequests, setSignRequests] = useState(connection.saml?.sign_authn_requests ?? false);
  const [requireEncryption, setRequireEncryption] = useState(connection.saml?.require_encrypted_assertions ?? false);
  const [issuer, setIssuer] = useState(connection.oidc?.issuer ?? '');
  const [clientId, setClientId] = useState(connection.oidc?.client_id ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The IdP's settings are sent only when changed: new metadata, the SAML options (they need no new metadata), OIDC's client.
  const samlChanges = connection.saml && {
    ...metadata.input,
    ...(signRequests !== connection.saml.sign_authn_requests && { sign_authn_requests: signRequests }),
    ...(requireEncryption !== connection.saml.require_encrypted_assertions && { require_encrypted_assertions: requireEncryption }),
  };
  const oidcChanged = connection.oidc !== null && (issuer.trim() !== connection.oidc.issuer || clientId.trim() !== connection.oidc.client_id || clientSecret !== '');
  const save = useMutation({
    mutationFn: () =>
      api.update(connection.id, {
        name: name.trim(),
        domains,
        default_role: defaultRole,
        attribute_mapping: mappingOf(mapping),
        enforce,
        allow_idp_initiated: allowIdpInitiated,
        ...(samlChanges && Object.keys(samlChanges).length > 0 && { saml: samlChanges }),
        ...(connection.type === 'oidc' && oidcChanged && { oidc: { issuer: issuer.trim(), client_id: clientId.trim(), ...(clientSecret && { client_secret: clientSecret }) } }),
      }),
  });
  const dropped = connection.domains.filter((domain) => domain.verified && !domains.includes(domain.domain)).map((domain) => domain.domain);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await save.mutateAsync();
      await queryClient.invalidateQueries({ queryKey: ssoConnectionKeys.list(projectId) });
      onClose();
      notify.success('SSO connection saved');
    } catch (failure) {
      if (failure instanceof ApiError && failure.status < 500 && failure.detail) setError(readableDetail(apiErrorMessage(failure, failure.detail)));
      else notifyFailure('Could not save the SSO connection', failure);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md">
        {error && (
          <Alert color="red" variant="light" role="alert" title="The connection was not saved">
            {error}
          </Alert>
        )}
        <TextInput label="Name" value={name} onChange={(event) => setName(event.currentTarget.value)} required maxLength={100} data-autofocus />
        <TagsInput
          label="Domains"
          description="The list replaces the current one: a new domain routes sign-ins once its DNS record is verified. Press Enter after each."
          value={domains}
          onChange={setDomains}
          splitChars={[',', ' ']}
          clearable
        />
        {dropped.length > 0 && (
          <Alert color="orange" variant="light">
            Sign-ins of {dropped.join(', ')} stop going to this connection as soon as you save.
          </Alert>
        )}
        <Select
          label="Default role"
          description="The role of a person's membership when their IdP groups map to none."
          data={roles.options}
          value={defaultRole}
          onChange={(value) => setDefaultRole(value ?? ORG_MEMBER_ROLE)}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        <AttributeMappingFields kind={connection.type} draft={mapping} onChange={setMapping} roles={roles.options} />
        <SettingSwitch
          label="Require SSO for these domains"
          description="People of the verified domains sign in only through this connection: their password is refused."
          checked={enforce}
          onChange={setEnforce}
        />
        {connection.type === 'saml' && (
          <SettingSwitch
            label="Allow IdP-initiated sign-in"
            description="Accept a sign-in started from the IdP's dashboard (a response no request of ours asked for). Off is safer."
            checked={allowIdpInitiated}
            onChange={setAllowIdpInitiated}
          />
        )}
        {connection.type === 'saml' ? (
          <SamlMetadataFields title="Replace the IdP’s metadata (a new certificate, a moved IdP)" replacing {...metadata.fields} />
        ) : (
          <>
            <TextInput label="Issuer" value={issuer} onChange={(event) => setIssuer(event.currentTarget.value)} required />
            <TextInput label="Client ID" value={clientId} onChange={(event) => setClientId(event.currentTarget.value)} required />
            <PasswordInput label="New client secret" description="Leave empty to keep the current one." value={clientSecret} onChange={(event) => setClientSecret(event.currentTarget.value)} />
          </>
        )}
        {connection.saml && <SamlOptionSwitches signRequests={signRequests} onSignRequests={setSignRequests} requireEncryption={requireEncryption} onRequireEncryption={setRequireEncryption} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!name.trim() || (connection.type === 'oidc' && (!issuer.trim() || !clientId.trim()))}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * What SamlMetadataFields edits, and the metadata to send: the pasted XML, or the URL when it is not `currentUrl`
 * (an existing connection's); null while nothing new is typed.
 */
function useSamlMetadataInput(currentUrl?: string | null) {
  const [source, setSource] = useState<MetadataSource>('xml');
  const [xml, setXml] = useState('');
  const [url, setUrl] = useState(currentUrl ?? '');
  const input = source === 'xml' ? (xml.trim() ? { idp_metadata_xml: xml.trim() } : null) : url.trim() && url.trim() !== currentUrl ? { idp_metadata_url: url.trim() } : null;
  return { input, fields: { source, onSource: setSource, xml, onXml: setXml, url, onUrl: setUrl } };
}

/** The IdP's SAML metadata, pasted or fetched from its URL: required for a new connection, `replacing` an existing one's. */
function SamlMetadataFields({
  title,
  replacing = false,
  source,
  onSource,
  xml,
  onXml,
  url,
  onUrl,
}: {
  title: string;
  replacing?: boolean;
  source: MetadataSource;
  onSource(source: MetadataSource): void;
  xml: string;
  onXml(xml: string): void;
  url: string;
  onUrl(url: string): void;
}) {
  const titleId = useId();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={titleId}>
        {title}
      </Text>
      <SegmentedControl
        aria-labelledby={titleId}
        value={source}
        onChange={(value) => onSource(value as MetadataSource)}
        data={[
          { value: 'xml', label: 'Paste the XML' },
          { value: 'url', label: 'Metadata URL' },
        ]}
      />
      {source === 'xml' ? (
        <Textarea
          label={replacing ? 'New IdP metadata XML' : 'IdP metadata XML'}
          description={replacing ? 'Leave empty to keep the current one.' : 'The metadata file your IdP offers (Okta, Microsoft Entra ID “Federation Metadata XML”, Google Workspace).'}
          value={xml}
          onChange={(event) => onXml(event.currentTarget.value)}
          autosize
          minRows={replacing ? 3 : 4}
          maxRows={replacing ? 10 : 12}
          required={!replacing}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        />
      ) : (
        <TextInput
          label="IdP metadata URL"
          description={replacing ? 'Read again when it changes.' : 'An https address this server fetches the metadata from, such as Okta’s “Metadata URL”.'}
          value={url}
          onChange={(event) => onUrl(event.currentTarget.value)}
          placeholder="https://acme.okta.com/app/…/sso/saml/metadata"
          required={!replacing}
        />
      )}
    </Stack>
  );
}

/** A SAML connection's two options, both about its own certificate (shown with the connection). */
function SamlOptionSwitches({
  signRequests,
  onSignRequests,
  requireEncryption,
  onRequireEncryption,
}: {
  signRequests: boolean;
  onSignRequests(value: boolean): void;
  requireEncryption: boolean;
  onRequireEncryption(value: boolean): void;
}) {
  return (
    <>
      <SettingSwitch
        label="Sign authentication requests"
        description="For identity providers that require signed requests: give them the connection’s SP certificate (or the SP metadata)."
        checked={signRequests}
        onChange={onSignRequests}
      />
      <SettingSwitch
        label="Require encrypted assertions"
        description="Refuse an assertion the identity provider did not encrypt to the connection’s SP certificate. Encrypted ones are accepted either way."
        checked={requireEncryption}
        onChange={onRequireEncryption}
      />
    </>
  );
}
