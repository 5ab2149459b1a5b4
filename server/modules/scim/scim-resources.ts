import type { Config } from '../../config.js';
import type { ScimGroupRow } from '../../db/schema.js';
import { scimBaseUrlOf } from '../sso/sso-urls.js';
import type { ScimUserView } from './scim.repo.js';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const SPC_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

/** The most resources one list answers (ServiceProviderConfig's filter.maxResults). */
export const MAX_RESULTS = 200;

export interface ScimUser {
  schemas: string[];
  id: string;
  externalId?: string;
  userName: string;
  name: { givenName?: string; familyName?: string; formatted?: string };
  displayName?: string;
  emails: { value: string; type: 'work'; primary: true }[];
  active: boolean;
  groups: { value: string; display: string; $ref: string }[];
  meta: { resourceType: 'User'; created: string; lastModified: string; location: string };
}

export interface ScimGroup {
  schemas: string[];
  id: string;
  externalId?: string;
  displayName: string;
  members?: { value: string; display?: string; $ref?: string }[];
  meta: { resourceType: 'Group'; created: string; lastModified: string; location: string };
}

export function toScimUser(config: Pick<Config, 'appUrl'>, row: ScimUserView, groups: Pick<ScimGroupRow, 'id' | 'display_name'>[]): ScimUser {
  const base = scimBaseUrlOf(config, row.connection_id);
  const formatted = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return {
    schemas: [USER_SCHEMA],
    id: row.user_id,
    ...(row.external_id !== null && { externalId: row.external_id }),
    userName: row.user_name,
    name: { ...(row.first_name && { givenName: row.first_name }), ...(row.last_name && { familyName: row.last_name }), ...(formatted && { formatted }) },
    ...(formatted && { displayName: formatted }),
    emails: [{ value: row.email, type: 'work', primary: true }],
    active: row.active === 1,
    groups: groups.map((group) => ({ value: group.id, display: group.display_name, $ref: `${base}/Groups/${group.id}` })),
    meta: { resourceType: 'User', created: row.created_at, lastModified: row.updated_at, location: `${base}/Users/${row.user_id}` },
  };
}

export function toScimGroup(config: Pick<Config, 'appUrl'>, row: ScimGroupRow, members: { user_id: string; user_name: string }[] | null): ScimGroup {
  const base = scimBaseUrlOf(config, row.connection_id);
  return {
    schemas: [GROUP_SCHEMA],
    id: row.id,
    ...(row.external_id !== null && { externalId: row.external_id }),
    displayName: row.display_name,
    ...(members && { members: members.map((member) => ({ value: member.user_id, display: member.user_name, $ref: `${base}/Users/${member.user_id}` })) }),
    meta: { resourceType: 'Group', created: row.created_at, lastModified: row.updated_at, location: `${base}/Groups/${row.id}` },
  };
}

export function listResponse<T>(resources: T[], totalResults: number, startIndex: number) {
  return { schemas: [LIST_SCHEMA], totalResults, startIndex, itemsPerPage: resources.length, Resources: resources };
}

// --- Discovery (RFC 7644 §4)

export function serviceProviderConfig(config: Pick<Config, 'appUrl'>, connectionId: string) {
  const base = scimBaseUrlOf(config, connectionId);
  return {
    schemas: [SPC_SCHEMA],
    documentationUri: 'https://www.rfc-editor.org/rfc/rfc7644',
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [{ type: 'oauthbearertoken', name: 'Bearer token', description: "The connection's SCIM token, sent as Authorization: Bearer <token>", primary: true }],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

export function resourceTypes(config: Pick<Config, 'appUrl'>, connectionId: string) {
  const base = scimBaseUrlOf(config, connectionId);
  const type = (id: 'User' | 'Group', endpoint: string, schema: string) => ({
    schemas: [RESOURCE_TYPE_SCHEMA],
    id,
    name: id,
    endpoint,
    schema,
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${id}` },
  });
  return [type('User', '/Users', USER_SCHEMA), type('Group', '/Groups', GROUP_SCHEMA)];
}

const attribute = (name: string, options: { type?: string; multiValued?: boolean; required?: boolean; caseExact?: boolean; mutability?: string; uniqueness?: string; subAttributes?: unknown[]; returned?: string }) => ({
  name,
  type: options.type ?? 'string',
  multiValued: options.multiValued ?? false,
  required: options.required ?? false,
  caseExact: options.caseExact ?? false,
  mutability: options.mutability ?? 'readWrite',
  returned: options.returned ?? 'default',
  uniqueness: options.uniqueness ?? 'none',
  ...(options.subAttributes && { subAttributes: options.subAttributes }),
});

/** The attributes this server keeps (others an IdP sends are accepted and not stored). */
export function schemas(config: Pick<Config, 'appUrl'>, connectionId: string) {
  const base = scimBaseUrlOf(config, connectionId);
  return [
    {
      schemas: [SCHEMA_SCHEMA],
      id: USER_SCHEMA,
      name: 'User',
      description: 'An end user of the project, a member of the connection\'s organization',
      attributes: [
        attribute('userName', { required: true, uniqueness: 'server' }),
        attribute('name', { type: 'complex', subAttributes: [attribute('givenName', {}), attribute('familyName', {}), attribute('formatted', { mutability: 'readOnly' })] }),
        attribute('displayName', { mutability: 'readOnly' }),
        attribute('emails', { type: 'complex', multiValued: true, subAttributes: [attribute('value', { uniqueness: 'server' }), attribute('type', {}), attribute('primary', { type: 'boolean' })] }),
        attribute('active', { type: 'boolean' }),
        attribute('password', { mutability: 'writeOnly', returned: 'never' }),
        attribute('groups', { type: 'complex', multiValued: true, mutability: 'readOnly', subAttributes: [attribute('value', { mutability: 'readOnly' }), attribute('display', { mutability: 'readOnly' })] }),
      ],
      meta: { resourceType: 'Schema', location: `${base}/Schemas/${USER_SCHEMA}` },
    },
    {
      schemas: [SCHEMA_SCHEMA],
      id: GROUP_SCHEMA,
      name: 'Group',
      description: "A group of the IdP; its members get the organization role the connection's group_roles map its displayName to",
      attributes: [
        attribute('displayName', { required: true, uniqueness: 'server' }),
        attribute('members', { type: 'complex', multiValued: true, subAttributes: [attribute('value', { mutability: 'immutable' }), attribute('display', { mutability: 'readOnly' })] }),
      ],
      meta: { resourceType: 'Schema', location: `${base}/Schemas/${GROUP_SCHEMA}` },
    },
  ];
}
