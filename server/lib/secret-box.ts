import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** AES-256-GCM sealing for secrets the server must be able to use again (project signing keys). */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
  /** HMAC-SHA256 of `purpose` and `value` under a key derived from the master key: stable, unguessable without it. */
  digest(purpose: string, value: string): Buffer;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('MASTER_KEY: expected 32 bytes, base64-encoded');
  const macKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'authplatform digest', 32));
  return {
    digest(purpose, value) {
      return createHmac('sha256', macKey).update(`${purpose}\0${value}`).digest();
    },
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || !body) throw new Error('sealed secret has an unknown format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** MASTER_KEY when given, else DATA_DIR/keys/master.key, created (mode 0600) on first start. */
export function loadOrCreateMasterKey(options: { base64: string | null; dataDir: string }): Buffer {
  if (options.base64) return Buffer.from(options.base64, 'base64');
  const file = path.join(options.dataDir, 'keys', 'master.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
}
