import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface SigningKey {
  kid: string;
  alg: 'ES256';
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicJwk: JsonWebKey & { kid: string; alg: 'ES256'; use: 'sig' };
}

/** RFC 7638 thumbprint: a stable kid derived from the key itself. */
function thumbprint(jwk: JsonWebKey): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

export function signingKeyFromPem(pem: string): SigningKey {
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('JWT_PRIVATE_KEY: expected an EC P-256 private key in PEM (ES256)');
  }
  const publicKey = createPublicKey(privateKey);
  const jwk = publicKey.export({ format: 'jwk' });
  const kid = thumbprint(jwk);
  return { kid, alg: 'ES256', privateKey, publicKey, publicJwk: { ...jwk, kid, alg: 'ES256', use: 'sig' } };
}

export function generateSigningKeyPem(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

/** Uses the given PEM, else the key kept in DATA_DIR/keys, creating it (mode 0600) on first start. */
export function loadOrCreateSigningKey(options: { pem: string | null; dataDir: string }): SigningKey {
  if (options.pem) return signingKeyFromPem(options.pem.replace(/\\n/g, '\n'));
  const file = path.join(options.dataDir, 'keys', 'jwt-es256.pem');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, generateSigningKeyPem(), { mode: 0o600, flag: 'wx' });
  }
  return signingKeyFromPem(fs.readFileSync(file, 'utf8'));
}
