import bcrypt from 'bcrypt';

const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;

export function isBcryptHash(stored: string): boolean {
  return BCRYPT.test(stored);
}

/** The cost a bcrypt string was made with. */
export function bcryptCost(stored: string): number {
  return Number(BCRYPT.exec(stored)?.[1] ?? 0);
}

/** `$2y$` (PHP) and `$2a$` are the same algorithm as `$2b$` for passwords without the old 8-bit bug; the library reads `$2a$`/`$2b$` only. */
export function verifyBcrypt(password: string, stored: string): Promise<boolean> {
  return bcrypt.compare(password, stored.startsWith('$2y$') ? `$2b$${stored.slice(4)}` : stored);
}
