import { MessageSchema } from '../../../shared/schemas/common.js';
import { DeviceRequestSchema, UserCodeInputSchema } from '../../../shared/schemas/device-flow.js';
import { defineRoute, HOSTED } from '../../rest/route.js';
import { decideDeviceRequest, lookUpDeviceRequest } from './device-authorization.service.js';

const PREFIX = '/hosted/:project_key/api/v1/device';
const TAG = 'Hosted pages';
const HOSTED_SIGNED_IN = { realm: 'hosted', session: 'required' } as const;
const GUESSES =
  'Each code typed counts against 20 per 15 minutes from one network, and a wrong one against the project\'s 1,000 an hour (429 past either). A code that is wrong, expired or already answered: 404.';

/** The hosted device page's calls (RFC 8628 §3.3): the user types the code a device shows, then approves or denies it. */
export const deviceRoutes = [
  defineRoute({
    method: 'POST',
    url: `${PREFIX}/lookup`,
    access: HOSTED,
    body: UserCodeInputSchema,
    response: { 200: DeviceRequestSchema },
    doc: { operationId: 'hostedLookUpDeviceCode', tag: TAG, summary: 'What the device showing this code asks for', description: GUESSES, errors: [404, 429] },
    handler: ({ deps, caller, body }) => lookUpDeviceRequest(deps, caller, body.user_code, caller.info),
  }),
  defineRoute({
    method: 'POST',
    url: `${PREFIX}/approve`,
    access: HOSTED_SIGNED_IN,
    body: UserCodeInputSchema,
    response: { 200: MessageSchema },
    doc: {
      operationId: 'hostedApproveDevice',
      tag: TAG,
      summary: 'Sign the device in as the signed-in user',
      description: `The device's next poll of the token endpoint gets the tokens (once). ${GUESSES}`,
      errors: [404, 429],
    },
    handler: ({ deps, caller, body }) => decideDeviceRequest(deps, caller, body.user_code, { userId: caller.session.user.id, sessionId: caller.session.sessionId }, true, caller.info),
  }),
  defineRoute({
    method: 'POST',
    url: `${PREFIX}/deny`,
    access: HOSTED_SIGNED_IN,
    body: UserCodeInputSchema,
    response: { 200: MessageSchema },
    doc: { operationId: 'hostedDenyDevice', tag: TAG, summary: "Refuse the device's request (its next poll hears access_denied)", description: GUESSES, errors: [404, 429] },
    handler: ({ deps, caller, body }) => decideDeviceRequest(deps, caller, body.user_code, { userId: caller.session.user.id, sessionId: caller.session.sessionId }, false, caller.info),
  }),
];
