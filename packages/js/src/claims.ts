/** The payload of a JWT, read without verifying it: the client trusts what its token endpoint answered over TLS. */
export function decodeJwt(token: string): Record<string, unknown> {
  const payload = token.split('.')[1];
  if (!payload) return {};
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** One of the user's organizations (ID token claim `organizations`, scope `organizations`). */
export interface OrganizationMembership {
  id: string;
  slug: string;
  name: string;
  role: string;
}

/** Who is signed in, from the ID token. */
export interface User {
  id: string;
  email?: string;
  emailVerified?: boolean;
  name?: string;
  givenName?: string;
  familyName?: string;
  /** The user's organizations, when the `organizations` scope was asked for. */
  organizations: OrganizationMembership[];
  /** Every claim of the ID token. */
  claims: Record<string, unknown>;
}

/** The organization the session is in, from the access token (org_id, org_slug, org_role, org_permissions). */
export interface ActiveOrganization {
  id: string;
  slug: string;
  role: string;
  permissions: string[];
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function userFromIdToken(idToken: string | undefined, accessToken: string): User {
  const claims = idToken ? decodeJwt(idToken) : decodeJwt(accessToken);
  const organizations = Array.isArray(claims.organizations)
    ? (claims.organizations as unknown[]).filter((item): item is OrganizationMembership => !!item && typeof item === 'object' && typeof (item as OrganizationMembership).id === 'string')
    : [];
  return {
    id: text(claims.sub) ?? '',
    email: text(claims.email),
    emailVerified: typeof claims.email_verified === 'boolean' ? claims.email_verified : undefined,
    name: text(claims.name),
    givenName: text(claims.given_name),
    familyName: text(claims.family_name),
    organizations,
    claims,
  };
}

export function activeOrganizationOf(accessClaims: Record<string, unknown>): ActiveOrganization | null {
  const id = text(accessClaims.org_id);
  if (!id) return null;
  const permissions = Array.isArray(accessClaims.org_permissions) ? accessClaims.org_permissions.filter((item): item is string => typeof item === 'string') : [];
  return { id, slug: text(accessClaims.org_slug) ?? '', role: text(accessClaims.org_role) ?? '', permissions };
}
