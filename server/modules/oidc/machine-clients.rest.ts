import { z } from 'zod';
import { MessageSchema } from '../../../shared/schemas/common.js';
import {
  CreateMachineClientInputSchema,
  MachineClientListSchema,
  MachineClientSchema,
  MachineClientWithSecretSchema,
  UpdateMachineClientInputSchema,
} from '../../../shared/schemas/machine-clients.js';
import { defineRoute, TEAM, UnvalidatedParam } from '../../rest/route.js';
import * as machineClients from './machine-clients.service.js';

const ProjectParams = z.object({ id: UnvalidatedParam });
const ClientParams = z.object({ id: UnvalidatedParam, machine_client_id: UnvalidatedParam });
const BASE = '/api/v1/projects/:id/machine-clients';
const LIMIT = 'Creating, changing, rotating and deleting machine clients: at most 30 a minute per developer (429).';

/** A project's machine clients (the client-credentials grant of its OpenID Connect provider), for its team. */
export const machineClientRoutes = [
  defineRoute({
    method: 'GET',
    url: BASE,
    access: TEAM,
    params: ProjectParams,
    response: { 200: MachineClientListSchema },
    doc: { operationId: 'listMachineClients', tag: 'Projects', summary: "The project's machine clients (secrets are never shown again)" },
    handler: ({ deps, caller, params }) => machineClients.listMachineClients(deps, caller.session.user, params.id),
  }),
  defineRoute({
    method: 'POST',
    url: BASE,
    access: TEAM,
    params: ProjectParams,
    body: CreateMachineClientInputSchema,
    response: { 201: MachineClientWithSecretSchema },
    doc: {
      operationId: 'createMachineClient',
      tag: 'Projects',
      summary: 'Add a machine client',
      description:
        'A backend, job or service that signs in as itself: it asks the project\'s token endpoint for an access token with `grant_type=client_credentials`, its `client_id` and the `client_secret` answered here once (kept only as a SHA-256 digest). ' +
        'The token\'s subject (`sub`) and `client_id` claim are the client\'s id, its `scope` the scopes asked for among `scopes` (all of them when none are asked). ' +
        `At most 50 clients per project. ${LIMIT}`,
      errors: [409, 429],
    },
    handler: ({ deps, caller, params, body }) => machineClients.createMachineClient(deps, caller.session.user, params.id, body, caller.info),
  }),
  defineRoute({
    method: 'GET',
    url: `${BASE}/:machine_client_id`,
    access: TEAM,
    params: ClientParams,
    response: { 200: MachineClientSchema },
    doc: { operationId: 'getMachineClient', tag: 'Projects', summary: 'A machine client', errors: [404] },
    handler: ({ deps, caller, params }) => machineClients.getMachineClient(deps, caller.session.user, params.id, params.machine_client_id),
  }),
  defineRoute({
    method: 'PATCH',
    url: `${BASE}/:machine_client_id`,
    access: TEAM,
    params: ClientParams,
    body: UpdateMachineClientInputSchema,
    response: { 200: MachineClientSchema },
    doc: {
      operationId: 'updateMachineClient',
      tag: 'Projects',
      summary: 'Rename a machine client, change its scopes, or revoke it (`revoked: true`, for good)',
      description: `A revoked client is refused at the token endpoint at once; the access tokens it already holds run out within their lifetime (the project's access-token lifetime, at most an hour). Changed scopes apply to the tokens issued from then on. ${LIMIT}`,
      errors: [404, 429],
    },
    handler: ({ deps, caller, params, body }) => machineClients.updateMachineClient(deps, caller.session.user, params.id, params.machine_client_id, body, caller.info),
  }),
  defineRoute({
    method: 'POST',
    url: `${BASE}/:machine_client_id/rotate-secret`,
    access: TEAM,
    params: ClientParams,
    response: { 200: MachineClientWithSecretSchema },
    doc: {
      operationId: 'rotateMachineClientSecret',
      tag: 'Projects',
      summary: "Replace a machine client's secret (answered once; the old one stops working at once)",
      description: LIMIT,
      errors: [404, 409, 429],
    },
    handler: ({ deps, caller, params }) => machineClients.rotateMachineClientSecret(deps, caller.session.user, params.id, params.machine_client_id, caller.info),
  }),
  defineRoute({
    method: 'DELETE',
    url: `${BASE}/:machine_client_id`,
    access: TEAM,
    params: ClientParams,
    response: { 200: MessageSchema },
    doc: { operationId: 'deleteMachineClient', tag: 'Projects', summary: 'Delete a machine client', description: LIMIT, errors: [404, 429] },
    handler: ({ deps, caller, params }) => machineClients.deleteMachineClient(deps, caller.session.user, params.id, params.machine_client_id, caller.info),
  }),
];
