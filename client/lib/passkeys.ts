import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { TRPCClientError } from '@trpc/client';
import type { PasskeyLoginInput, WebAuthnOptions } from '../../shared/schemas/passkeys';
import { errorMessage } from './errors';

type PasskeyAnswer = PasskeyLoginInput['response'];

/** The user closed the browser's passkey dialog, or it timed out: not an error worth a red toast. */
export class PasskeyCancelled extends Error {
  constructor() {
    super('Passkey request cancelled or timed out');
  }
}

export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/**
 * Passkeys are bound to the server's host (the relying party). A page opened under another name
 * (127.0.0.1 for a server at localhost) cannot use them: say so instead of a browser error.
 */
export function wrongHostFor(rpId: string | undefined, hostname = window.location.hostname): string | null {
  if (!rpId || hostname === rpId || hostname.endsWith(`.${rpId}`)) return null;
  return `Passkeys for this app belong to ${rpId}: open it at that address to use them.`;
}

async function ceremony<T>(rpId: string | undefined, run: () => Promise<T>): Promise<T> {
  const wrongHost = wrongHostFor(rpId);
  if (wrongHost) throw new Error(wrongHost);
  try {
    return await run();
  } catch (error) {
    if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) throw new PasskeyCancelled();
    throw error;
  }
}

/** navigator.credentials.create() with the server's options; answers the JSON the server verifies. */
export function createPasskey(options: WebAuthnOptions): Promise<PasskeyAnswer> {
  const optionsJSON = options as unknown as PublicKeyCredentialCreationOptionsJSON;
  return ceremony(optionsJSON.rp?.id, async () => (await startRegistration({ optionsJSON })) as unknown as PasskeyAnswer);
}

/** navigator.credentials.get() with the server's options; answers the JSON the server verifies. */
export function answerWithPasskey(options: WebAuthnOptions): Promise<PasskeyAnswer> {
  const optionsJSON = options as unknown as PublicKeyCredentialRequestOptionsJSON;
  return ceremony(optionsJSON.rpId, async () => (await startAuthentication({ optionsJSON })) as unknown as PasskeyAnswer);
}

/** The text for a failed passkey ceremony: the server's detail, a browser's own message, or the fallback. */
export function passkeyErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof TRPCClientError) return errorMessage(error, fallback);
  return error instanceof Error && error.message ? error.message : fallback;
}
