import type { ImportedPassword } from '../../../../shared/schemas/user-transfer.js';
import { toTransferPassword } from '../../passwords/password-hashes/index.js';

/**
 * What an export says of a stored password hash: our own bcrypt as it is, and a hash an import brought in
 * that no sign-in has rehashed yet in its transfer form (the import reads both back). Firebase's scrypt
 * leaves without its parameters (they belong to the import that brought it: give them again to the next
 * import). A stored form nothing reads is left out (null: the user sets a new password after moving),
 * never guessed at.
 */
export function exportedPassword(stored: string): ImportedPassword | null {
  try {
    return toTransferPassword(stored);
  } catch {
    return null;
  }
}
