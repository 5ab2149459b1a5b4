/** How an e-mail address is compared and stored, everywhere: without surrounding spaces, in lower case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
