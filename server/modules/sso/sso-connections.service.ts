import type { z } from 'zod';
import {
  AttributeMappingSchema,
  IDP_METADATA_MAX_BYTES,
  SSO_MESSAGES,
  type AttributeMapping,
  type CreateSsoConnectionInputSchema,
  type SamlSettingsInputSchema,
  type SsoConnection,
  type UpdateSsoConnectionInputSchema,
} from '../../../shared/schemas/sso.js';
import { ORG_MEMBER_ROLE } from '../../../shared/schemas/organizations.js';
import type { Deps } from '../../deps.js';
import type { SsoConnectionRow, SsoDomainRow, UserRow } from '../../db/schema.js';
import { withTransaction, type Tx } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { isoNow } from '../../lib/clock.js';
import { newId, randomToken, sha256 } from '../../lib/crypto.js';
import type { RequestInfo } from '../../lib/request-info.js';
import { changedFields, recordChange, type AuditActor } from '../changes/record-change.js';
import { createPublicFetch, isPlainlyPrivate } from '../ip-intel/public-fetch.js';
import { organizationOf, requireProjectRoleKey } from '../organizations/organizations.service.js';
import { requireProjectRole } from '../realms/project-access.js';
import { hasVerificationRecord, txtRecordNameOf, txtRecordValueOf } from './domain-verification.js';
import { certificateOf, readIdpMetadata, SamlXmlError, type IdpMetadata } from './saml-xml.js';
import * as repo from './sso.repo.js';
import { generateSpKeyPair, withSpKeys } from './saml-sp-keys.js';
import { acsUrlOf, oidcCallbackUrlOf, scimBaseUrlOf, spEntityIdOf, spMetadataUrlOf } from './sso-urls.js';

type CreateInput = z.output<typeof CreateSsoConnectionInputSchema>;
type UpdateInput = z.output<typeof UpdateSsoConnectionInputSchema>;

const METADATA_FETCH_TIMEOUT_MS = 10_000;
const SAML_METADATA_REQUIRED = 'saml is required for a SAML connection: {idp_metadata_xml} or {idp_metadata_url}';

/** Whether the SAML input brings new IdP metadata (a PATCH may change only the options). */
function bringsMetadata(saml: z.output<typeof SamlSettingsInputSchema>): boolean {
  return 'idp_metadata_xml' in saml || 'idp_metadata_url' in saml;
}

export function attributeMappingOf(row: Pick<SsoConnectionRow, 'attribute_mapping'>): AttributeMapping {
  const parsed = AttributeMappingSchema.safeParse(JSON.parse(row.attribute_mapping));
  return parsed.success ? parsed.data : {};
}

export function certificatesOf(row: Pick<SsoConnectionRow, 'saml_idp_certificates'>): string[] {
  return row.saml_idp_certificates ? (JSON.parse(row.saml_idp_certificates) as string[]) : [];
}

export function toSsoConnection(deps: Pick<Deps, 'config'>, row: SsoConnectionRow, domains: SsoDomainRow[]): SsoConnection {
  return {
    id: row.id,
    organization_id: row.organization_id,
    type: row.type,
    name: row.name,
    enabled: row.enabled === 1,
    domains: domains
      .filter((domain) => domain.connection_id === row.id)
      .map((domain) => ({
        domain: domain.domain,
        verified: domain.verified_at !== null,
        verified_at: domain.verified_at,
        txt_record_name: txtRecordNameOf(domain.domain),
        txt_record_value: txtRecordValueOf(domain.verification_token),
      })),
    default_role: row.default_role,
    attribute_mapping: attributeMappingOf(row),
    allow_idp_initiated: row.allow_idp_initiated === 1,
    enforce: row.enforce === 1,
    saml:
      row.type === 'saml'
        ? {
            idp_entity_id: row.saml_idp_entity_id ?? '',
            idp_sso_url: row.saml_idp_sso_url ?? '',
            idp_metadata_url: row.saml_idp_metadata_url,
            idp_certificates: certificatesOf(row).map((base64) => {
              const certificate = certificateOf(base64);
              return { not_after: certificate ? new Date(certificate.validTo).toISOString() : '', subject: certificate?.subject ?? '' };
            }),
            sp_entity_id: spEntityIdOf(deps.config, row.id),
            acs_url: acsUrlOf(deps.config, row.id),
            sp_metadata_url: spMetadataUrlOf(deps.config, row.id),
            sp_certificate: row.saml_sp_certificate ?? '',
            sign_authn_requests: row.saml_sign_authn_requests === 1,
            require_encrypted_assertions: row.saml_require_encrypted_assertions === 1,
          }
        : null,
    oidc: row.type === 'oidc' ? { issuer: row.oidc_issuer ?? '', client_id: row.oidc_client_id ?? '', callback_url: oidcCallbackUrlOf(deps.config, row.id) } : null,
    scim: { enabled: row.scim_token_hash !== null, base_url: scimBaseUrlOf(deps.config, row.id), token_created_at: row.scim_token_created_at },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function answerOf(deps: Deps, row: SsoConnectionRow): Promise<SsoConnection> {
  return toSsoConnection(deps, await withSpKeys(deps, row), await repo.listDomains(deps.db, [row.id]));
}

/**
 * Who changes a project's connections: a member of its team (the dashboard, the REST API), or the
 * setup portal of one organization (its IT admin, through a one-time link), which sees and changes
 * that organization's connections only. The services below are the same for both.
 */
export interface ConnectionManager {
  projectId: string;
  actor: AuditActor;
  /** The key of the per-actor limit on changes. */
  limitKey: string;
  /** Set for the setup portal: any other organization's connection is not found (404). */
  organizationId?: string;
}

/** A team member with at least `needed` on the project, as the manager of its connections. */
async function teamManager(deps: Deps, owner: UserRow, projectId: string, info: RequestInfo): Promise<ConnectionManager> {
  const project = await requireProjectRole(deps, owner, projectId, 'admin');
  return { projectId: project.id, actor: { user: owner, info }, limitKey: owner.id };
}

/** What a team member who may read the project's connections (a viewer) sees. */
async function teamReader(deps: Deps, owner: UserRow, projectId: string): Promise<{ projectId: string }> {
  return { projectId: (await requireProjectRole(deps, owner, projectId, 'viewer')).id };
}

/** The manager's connection (of its organization, when it is pinned to one); 404 otherwise. */
export async function requireConnection(deps: Pick<Deps, 'db'>, manager: Pick<ConnectionManager, 'projectId' | 'organizationId'>, connectionId: string): Promise<SsoConnectionRow> {
  const row = await repo.findConnection(deps.db, manager.projectId, connectionId);
  if (!row || (manager.organizationId !== undefined && row.organization_id !== manager.organizationId)) throw new AppError('NOT_FOUND', SSO_MESSAGES.connectionNotFound);
  return row;
}

export async function listSsoConnections(deps: Deps, owner: UserRow, projectId: string): Promise<{ connections: SsoConnection[] }> {
  return listConnectionsAs(deps, await teamReader(deps, owner, projectId));
}

export async function listConnectionsAs(deps: Deps, manager: Pick<ConnectionManager, 'projectId' | 'organizationId'>): Promise<{ connections: SsoConnection[] }> {
  const listed = (await repo.listConnections(deps.db, manager.projectId)).filter((row) => manager.organizationId === undefined || row.organization_id === manager.organizationId);
  const rows = await Promise.all(listed.map((row) => withSpKeys(deps, row)));
  const domains = await repo.listDomains(deps.db, rows.map((row) => row.id));
  return { connections: rows.map((row) => toSsoConnection(deps, row, domains)) };
}

export async function getSsoConnection(deps: Deps, owner: UserRow, projectId: string, connectionId: string): Promise<SsoConnection> {
  return getConnectionAs(deps, await teamReader(deps, owner, projectId), connectionId);
}

export async function getConnectionAs(deps: Deps, manager: Pick<ConnectionManager, 'projectId' | 'organizationId'>, connectionId: string): Promise<SsoConnection> {
  return answerOf(deps, await requireConnection(deps, manager, connectionId));
}

/**
 * The IdP's metadata, pasted or fetched, read into what a sign-in needs. A URL is fetched from this
 * server, so it must be public (https at a public address, checked again after DNS when connecting)
 * unless CONNECTIONS_ALLOW_PRIVATE, as for social connections' providers.
 */
async function idpMetadataOf(deps: Deps, saml: z.output<typeof SamlSettingsInputSchema>): Promise<IdpMetadata & { metadataUrl: string | null }> {
  let xml: string;
  let metadataUrl: string | null = null;
  if ('idp_metadata_url' in saml) {
    metadataUrl = saml.idp_metadata_url;
    xml = await fetchMetadata(deps, metadataUrl);
  } else if ('idp_metadata_xml' in saml) {
    xml = saml.idp_metadata_xml;
  } else {
    throw new AppError('UNPROCESSABLE_CONTENT', SAML_METADATA_REQUIRED);
  }
  try {
    return { ...readIdpMetadata(xml, deps.clock.now()), metadataUrl };
  } catch (error) {
    if (error instanceof SamlXmlError) throw new AppError('UNPROCESSABLE_CONTENT', `The IdP metadata is not usable: ${error.message}`);
    throw error;
  }
}

async function fetchMetadata(deps: Deps, value: string): Promise<string> {
  const url = new URL(value);
  const allowPrivate = deps.config.connectionsAllowPrivate;
  if (!allowPrivate) {
    if (isPlainlyPrivate(url)) throw new AppError('UNPROCESSABLE_CONTENT', 'idp_metadata_url must be a public address: this server does not reach identity providers on private or local networks');
    if (url.protocol !== 'https:') throw new AppError('UNPROCESSABLE_CONTENT', 'idp_metadata_url must be an https URL');
  }
  const fetcher = allowPrivate ? fetch : createPublicFetch();
  const unreachable = () => new AppError('UNPROCESSABLE_CONTENT', 'The IdP metadata could not be fetched from idp_metadata_url');
  try {
    const response = await fetcher(url, { signal: AbortSignal.timeout(METADATA_FETCH_TIMEOUT_MS), headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' } });
    if (!response.ok) throw unreachable();
    const text = await response.text();
    if (Buffer.byteLength(text) > IDP_METADATA_MAX_BYTES) throw new AppError('UNPROCESSABLE_CONTENT', 'The IdP metadata at idp_metadata_url is too large');
    return text;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unreachable();
  }
}

function requireReachableIssuer(deps: Deps, issuer: string): void {
  if (deps.config.connectionsAllowPrivate) return;
  const url = new URL(issuer);
  if (isPlainlyPrivate(url)) throw new AppError('UNPROCESSABLE_CONTENT', 'oidc.issuer must be a public address: this server does not reach identity providers on private or local networks');
  if (url.protocol !== 'https:') throw new AppError('UNPROCESSABLE_CONTENT', 'oidc.issuer must be an https URL');
}

/** New domains of a connection, verified at once when SSO_DOMAIN_VERIFICATION=off (tests); 409 for one another connection holds. */
async function addDomains(tx: Tx<Deps>, project: { id: string }, connectionId: string, domains: readonly string[], now: string): Promise<void> {
  const skipProof = tx.config.ssoDomainVerification === 'off';
  for (const domain of new Set(domains)) {
    if (await repo.domainVerifiedElsewhere(tx.db, project.id, domain, connectionId)) throw new AppError('CONFLICT', `${SSO_MESSAGES.domainTaken}: ${domain}`);
    await repo.insertDomain(tx.db, {
      id: newId(),
      connection_id: connectionId,
      project_id: project.id,
      domain,
      verification_token: randomToken(),
      verified_at: skipProof ? now : null,
      created_at: now,
    });
  }
}

function audited(connection: SsoConnection): Record<string, unknown> {
  return {
    name: connection.name,
    type: connection.type,
    enabled: connection.enabled,
    organization_id: connection.organization_id,
    domains: connection.domains.map((domain) => domain.domain),
    default_role: connection.default_role,
    allow_idp_initiated: connection.allow_idp_initiated,
    enforce: connection.enforce,
    idp_entity_id: connection.saml?.idp_entity_id ?? null,
    sign_authn_requests: connection.saml?.sign_authn_requests ?? null,
    require_encrypted_assertions: connection.saml?.require_encrypted_assertions ?? null,
    issuer: connection.oidc?.issuer ?? null,
    client_id: connection.oidc?.client_id ?? null,
  };
}

async function requireMappedRoles(deps: Deps, projectId: string, defaultRole: string, mapping: AttributeMapping | undefined): Promise<void> {
  await requireProjectRoleKey(deps, projectId, defaultRole);
  for (const role of Object.values(mapping?.group_roles ?? {})) await requireProjectRoleKey(deps, projectId, role);
}

/**
 * Adds an enterprise connection to one of the project's organizations. SAML takes the IdP's metadata
 * (checked: entity id, SSO URL, signing certificates); OIDC its issuer and client, the secret sealed
 * with the master key and never shown again. Domains wait for their DNS proof.
 */
export async function createSsoConnection(deps: Deps, owner: UserRow, projectId: string, input: CreateInput, info: RequestInfo): Promise<SsoConnection> {
  return createConnectionAs(deps, await teamManager(deps, owner, projectId, info), input);
}

/** The setup portal's manager can only add a connection to its own organization (whatever organization_id says). */
export async function createConnectionAs(deps: Deps, manager: ConnectionManager, given: CreateInput, id: string = newId()): Promise<SsoConnection> {
  const project = { id: manager.projectId };
  const input = manager.organizationId === undefined ? given : { ...given, organization_id: manager.organizationId };
  await deps.limiters.connectionChangesPerUser.consume(manager.limitKey);
  await organizationOf(deps, project.id, input.organization_id);
  const defaultRole = input.default_role ?? ORG_MEMBER_ROLE;
  await requireMappedRoles(deps, project.id, defaultRole, input.attribute_mapping);
  let saml: (IdpMetadata & { metadataUrl: string | null }) | null = null;
  if (input.type === 'saml') {
    if (!input.saml || !bringsMetadata(input.saml)) throw new AppError('UNPROCESSABLE_CONTENT', SAML_METADATA_REQUIRED);
    saml = await idpMetadataOf(deps, input.saml);
  } else {
    if (!input.oidc) throw new AppError('UNPROCESSABLE_CONTENT', 'oidc is required for an OpenID Connect connection: {issuer, client_id, client_secret}');
    if (!input.oidc.client_secret) throw new AppError('UNPROCESSABLE_CONTENT', 'oidc.client_secret is required');
    requireReachableIssuer(deps, input.oidc.issuer);
  }
  const now = isoNow(deps.clock);
  const spKeys = saml ? await generateSpKeyPair(id, deps.clock.now()) : null;
  return withTransaction(deps, async (tx) => {
    await repo.insertConnection(tx.db, {
      id,
      project_id: project.id,
      organization_id: input.organization_id,
      type: input.type,
      name: input.name,
      enabled: input.enabled === false ? 0 : 1,
      saml_idp_entity_id: saml?.entityId ?? null,
      saml_idp_sso_url: saml?.ssoUrl ?? null,
      saml_idp_certificates: saml ? JSON.stringify(saml.certificates) : null,
      saml_idp_metadata_url: saml?.metadataUrl ?? null,
      saml_sp_private_key: spKeys ? deps.secretBox.seal(spKeys.privateKeyPem) : null,
      saml_sp_certificate: spKeys?.certificatePem ?? null,
      saml_sign_authn_requests: input.saml?.sign_authn_requests ? 1 : 0,
      saml_require_encrypted_assertions: input.saml?.require_encrypted_assertions ? 1 : 0,
      oidc_issuer: input.type === 'oidc' ? input.oidc!.issuer : null,
      oidc_client_id: input.type === 'oidc' ? input.oidc!.client_id : null,
      oidc_client_secret: input.type === 'oidc' ? deps.secretBox.seal(input.oidc!.client_secret!) : null,
      default_role: defaultRole,
      attribute_mapping: JSON.stringify(input.attribute_mapping ?? {}),
      allow_idp_initiated: input.allow_idp_initiated ? 1 : 0,
      enforce: input.enforce ? 1 : 0,
      created_at: now,
      updated_at: now,
    });
    await addDomains(tx, project, id, input.domains, now);
    const connection = await answerOf(tx, (await repo.findConnectionById(tx.db, id))!);
    await recordChange(tx, manager.actor, { projectId: project.id, action: 'sso_connection.created', target: { type: 'sso_connection', id, label: connection.name }, before: null, after: audited(connection) });
    return connection;
  });
}

/** Changes a connection; new metadata is checked like at creation, a removed domain stops routing at once. */
export async function updateSsoConnection(deps: Deps, owner: UserRow, projectId: string, connectionId: string, input: UpdateInput, info: RequestInfo): Promise<SsoConnection> {
  return updateConnectionAs(deps, await teamManager(deps, owner, projectId, info), connectionId, input);
}

export async function updateConnectionAs(deps: Deps, manager: ConnectionManager, connectionId: string, input: UpdateInput): Promise<SsoConnection> {
  const project = { id: manager.projectId };
  await deps.limiters.connectionChangesPerUser.consume(manager.limitKey);
  const existing = await withSpKeys(deps, await requireConnection(deps, manager, connectionId));
  const before = await answerOf(deps, existing);
  if (input.saml && existing.type !== 'saml') throw new AppError('UNPROCESSABLE_CONTENT', 'saml applies to SAML connections only');
  if (input.oidc && existing.type !== 'oidc') throw new AppError('UNPROCESSABLE_CONTENT', 'oidc applies to OpenID Connect connections only');
  await requireMappedRoles(deps, project.id, input.default_role ?? existing.default_role, input.attribute_mapping);
  const saml = input.saml && bringsMetadata(input.saml) ? await idpMetadataOf(deps, input.saml) : null;
  if (input.oidc) requireReachableIssuer(deps, input.oidc.issuer);
  const now = isoNow(deps.clock);
  return withTransaction(deps, async (tx) => {
    await repo.updateConnection(tx.db, existing.id, {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.enabled !== undefined && { enabled: input.enabled ? 1 : 0 }),
      ...(input.default_role !== undefined && { default_role: input.default_role }),
      ...(input.attribute_mapping !== undefined && { attribute_mapping: JSON.stringify(input.attribute_mapping) }),
      ...(input.allow_idp_initiated !== undefined && { allow_idp_initiated: input.allow_idp_initiated ? 1 : 0 }),
      ...(input.enforce !== undefined && { enforce: input.enforce ? 1 : 0 }),
      ...(saml && {
        saml_idp_entity_id: saml.entityId,
        saml_idp_sso_url: saml.ssoUrl,
        saml_idp_certificates: JSON.stringify(saml.certificates),
        saml_idp_metadata_url: saml.metadataUrl,
      }),
      ...(input.saml?.sign_authn_requests !== undefined && { saml_sign_authn_requests: input.saml.sign_authn_requests ? 1 : 0 }),
      ...(input.saml?.require_encrypted_assertions !== undefined && { saml_require_encrypted_assertions: input.saml.require_encrypted_assertions ? 1 : 0 }),
      ...(input.oidc && {
        oidc_issuer: input.oidc.issuer,
        oidc_client_id: input.oidc.client_id,
        ...(input.oidc.client_secret && { oidc_client_secret: deps.secretBox.seal(input.oidc.client_secret) }),
      }),
      updated_at: now,
    });
    if (input.domains) {
      const current = before.domains.map((domain) => domain.domain);
      await repo.deleteDomains(tx.db, existing.id, current.filter((domain) => !input.domains!.includes(domain)));
      await addDomains(tx, project, existing.id, input.domains.filter((domain) => !current.includes(domain)), now);
    }
    const connection = await answerOf(tx, (await repo.findConnectionById(tx.db, existing.id))!);
    const after = { ...audited(connection), ...(input.oidc?.client_secret && { client_secret: 'replaced' }) };
    await recordChange(tx, manager.actor, { projectId: project.id, action: 'sso_connection.updated', target: { type: 'sso_connection', id: existing.id, label: connection.name }, ...changedFields(audited(before), after) });
    return connection;
  });
}

export async function deleteSsoConnection(deps: Deps, owner: UserRow, projectId: string, connectionId: string, info: RequestInfo): Promise<{ message: string }> {
  return deleteConnectionAs(deps, await teamManager(deps, owner, projectId, info), connectionId);
}

export async function deleteConnectionAs(deps: Deps, manager: ConnectionManager, connectionId: string): Promise<{ message: string }> {
  const project = { id: manager.projectId };
  await deps.limiters.connectionChangesPerUser.consume(manager.limitKey);
  const before = await answerOf(deps, await requireConnection(deps, manager, connectionId));
  await withTransaction(deps, async (tx) => {
    if (!(await repo.deleteConnection(tx.db, project.id, connectionId))) throw new AppError('NOT_FOUND', SSO_MESSAGES.connectionNotFound);
    await recordChange(tx, manager.actor, { projectId: project.id, action: 'sso_connection.deleted', target: { type: 'sso_connection', id: connectionId, label: before.name }, before: audited(before) });
  });
  return { message: 'SSO connection deleted' };
}

/**
 * Checks each unverified domain's DNS TXT record (`_authplatform-verification.<domain>`); a domain
 * verified for another connection of the project stays unverified here (409 when that is all that is left).
 */
export async function verifySsoDomains(deps: Deps, owner: UserRow, projectId: string, connectionId: string, info: RequestInfo): Promise<SsoConnection> {
  return verifyDomainsAs(deps, await teamManager(deps, owner, projectId, info), connectionId);
}

export async function verifyDomainsAs(deps: Deps, manager: ConnectionManager, connectionId: string): Promise<SsoConnection> {
  const project = { id: manager.projectId };
  await deps.limiters.connectionChangesPerUser.consume(manager.limitKey);
  const connection = await requireConnection(deps, manager, connectionId);
  const pending = (await repo.listDomains(deps.db, [connection.id])).filter((domain) => domain.verified_at === null);
  const proven: SsoDomainRow[] = [];
  for (const domain of pending) {
    if (deps.config.ssoDomainVerification === 'off' || (await hasVerificationRecord(domain.domain, domain.verification_token))) proven.push(domain);
  }
  const now = isoNow(deps.clock);
  const taken: string[] = [];
  await withTransaction(deps, async (tx) => {
    for (const domain of proven) {
      if (await repo.domainVerifiedElsewhere(tx.db, project.id, domain.domain, connection.id)) {
        taken.push(domain.domain);
        continue;
      }
      await repo.markDomainVerified(tx.db, domain.id, now);
      await recordChange(tx, manager.actor, { projectId: project.id, action: 'sso_domain.verified', target: { type: 'sso_connection', id: connection.id, label: connection.name }, after: { domain: domain.domain } });
    }
  });
  // The other proven domains are verified (committed above); the ones another connection holds are named.
  if (taken.length > 0) throw new AppError('CONFLICT', `${SSO_MESSAGES.domainTaken}: ${taken.join(', ')}`);
  return answerOf(deps, connection);
}

/**
 * Makes the connection's SCIM bearer token, answered this once: only its SHA-256 is kept. A token that
 * existed is replaced at once (the IdP's old one is refused from the next call on).
 */
export async function createScimToken(deps: Deps, owner: UserRow, projectId: string, connectionId: string, info: RequestInfo): Promise<{ token: string; base_url: string; created_at: string }> {
  return createScimTokenAs(deps, await teamManager(deps, owner, projectId, info), connectionId);
}

export async function createScimTokenAs(deps: Deps, manager: ConnectionManager, connectionId: string): Promise<{ token: string; base_url: string; created_at: string }> {
  const project = { id: manager.projectId };
  await deps.limiters.connectionChangesPerUser.consume(manager.limitKey);
  const connection = await requireConnection(deps, manager, connectionId);
  const token = `scim_${randomToken()}`;
  const now = isoNow(deps.clock);
  await withTransaction(deps, async (tx) => {
    await repo.updateConnection(tx.db, connection.id, { scim_token_hash: sha256(token), scim_token_created_at: now });
    const action = connection.scim_token_hash === null ? 'scim_token.created' : 'scim_token.rotated';
    await recordChange(tx, manager.actor, { projectId: project.id, action, target: { type: 'sso_connection', id: connection.id, label: connection.name } });
  });
  return { token, base_url: scimBaseUrlOf(deps.config, connection.id), created_at: now };
}

/** Turns SCIM off for the connection: its token is refused from now on (what was provisioned stays). */
export async function revokeScimToken(deps: Deps, owner: UserRow, projectId: string, connectionId: string, info: RequestInfo): Promise<{ message: string }> {
  const manager = await teamManager(deps, owner, projectId, info);
  const project = { id: manager.projectId };
  await deps.limiters.connectionChangesPerUser.consume(manager.limitKey);
  const connection = await requireConnection(deps, manager, connectionId);
  if (connection.scim_token_hash === null) throw new AppError('NOT_FOUND', 'This connection has no SCIM token');
  await withTransaction(deps, async (tx) => {
    await repo.updateConnection(tx.db, connection.id, { scim_token_hash: null, scim_token_created_at: null });
    await recordChange(tx, manager.actor, { projectId: project.id, action: 'scim_token.revoked', target: { type: 'sso_connection', id: connection.id, label: connection.name } });
  });
  return { message: 'SCIM token revoked' };
}
