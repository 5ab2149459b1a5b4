import 'reflect-metadata';
import { generateKeyPair, randomBytes, webcrypto } from 'node:crypto';
import { promisify } from 'node:util';
import * as x509 from '@peculiar/x509';
import type { Deps } from '../../deps.js';
import type { SsoConnectionRow } from '../../db/schema.js';
import * as repo from './sso.repo.js';

/** How long a connection's own certificate is valid: IdPs pin it, so long enough never to roll over unasked. */
const SP_CERTIFICATE_YEARS = 20;
const RSA_SHA256 = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/** The connection's own key pair: signs its AuthnRequests, decrypts what the IdP encrypts to it. */
export interface SpKeyPair {
  privateKeyPem: string;
  certificatePem: string;
}

const generateRsaKeyPair = promisify(generateKeyPair);

/**
 * A new RSA-2048 key and a self-signed certificate for it, named after the connection. The key is made on libuv's
 * thread pool: an RSA key takes tens to hundreds of milliseconds, which generateKeyPairSync would hold the event loop for.
 */
export async function generateSpKeyPair(connectionId: string, now: Date): Promise<SpKeyPair> {
  const { privateKey, publicKey } = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
  const keys = {
    privateKey: await webcrypto.subtle.importKey('pkcs8', privateKey.export({ type: 'pkcs8', format: 'der' }), RSA_SHA256, false, ['sign']),
    publicKey: await webcrypto.subtle.importKey('spki', publicKey.export({ type: 'spki', format: 'der' }), RSA_SHA256, true, ['verify']),
  };
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + SP_CERTIFICATE_YEARS);
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f; // a positive serial number
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial.toString('hex'),
    name: `CN=SAML SP ${connectionId}`,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter,
    signingAlgorithm: RSA_SHA256,
    keys: keys as unknown as CryptoKeyPair,
  });
  return { privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), certificatePem: certificate.toString('pem') };
}

/**
 * The SAML connection with its key pair: made and stored (the key sealed) the first time a connection
 * made before keys existed needs one. Two callers racing keep the first stored pair.
 */
export async function withSpKeys(deps: Pick<Deps, 'db' | 'secretBox' | 'clock'>, row: SsoConnectionRow): Promise<SsoConnectionRow> {
  if (row.type !== 'saml' || (row.saml_sp_private_key && row.saml_sp_certificate)) return row;
  const pair = await generateSpKeyPair(row.id, deps.clock.now());
  await repo.storeSpKeysIfMissing(deps.db, row.id, { saml_sp_private_key: deps.secretBox.seal(pair.privateKeyPem), saml_sp_certificate: pair.certificatePem });
  return (await repo.findConnectionById(deps.db, row.id)) ?? row;
}

/** The connection's key pair, opened; the row must have been through withSpKeys. */
export function spKeyPairOf(deps: Pick<Deps, 'secretBox'>, row: SsoConnectionRow): SpKeyPair {
  if (!row.saml_sp_private_key || !row.saml_sp_certificate) throw new Error(`SAML connection ${row.id} has no key pair`);
  return { privateKeyPem: deps.secretBox.open(row.saml_sp_private_key), certificatePem: row.saml_sp_certificate };
}
