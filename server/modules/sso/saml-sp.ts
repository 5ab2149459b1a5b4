import { generateServiceProviderMetadata, SAML, ValidateInResponseTo, type Profile } from '@node-saml/node-saml';
import type { Config } from '../../config.js';
import type { SsoConnectionRow } from '../../db/schema.js';
import { localPath, parseSamlXml, pemOf, selectAll, selectOne, SamlXmlError } from './saml-xml.js';
import { acsUrlOf, spEntityIdOf } from './sso-urls.js';
import { certificatesOf } from './sso-connections.service.js';
import type { SpKeyPair } from './saml-sp-keys.js';

/** How far our clock and the IdP's may disagree on NotBefore / NotOnOrAfter. */
export const SAML_CLOCK_SKEW_MS = 60_000;
/** An assertion without its own NotOnOrAfter is remembered (and accepted) this long after it was issued. */
export const SAML_MAX_ASSERTION_AGE_MS = 10 * 60_000;

const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** A refused SAML response: the reason is logged, the browser gets a generic answer. */
export class SamlRefusal extends Error {}

function clientOf(config: Pick<Config, 'appUrl'>, row: SsoConnectionRow, keys: SpKeyPair, requestId?: string): SAML {
  return new SAML({
    entryPoint: row.saml_idp_sso_url!,
    issuer: spEntityIdOf(config, row.id),
    audience: spEntityIdOf(config, row.id),
    callbackUrl: acsUrlOf(config, row.id),
    idpCert: certificatesOf(row).map(pemOf),
    // Either the response or the assertion must carry a valid signature by the IdP's certificate (node-saml refuses both unsigned).
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    maxAssertionAgeMs: SAML_MAX_ASSERTION_AGE_MS,
    // InResponseTo is checked against our own waiting row (one use, in the database), from the signed assertion.
    validateInResponseTo: ValidateInResponseTo.never,
    disableRequestedAuthnContext: true,
    identifierFormat: EMAIL_NAME_ID,
    // An IdP may encrypt its assertions to our certificate (the metadata offers it for encryption).
    decryptionPvk: keys.privateKeyPem,
    // Signed AuthnRequests: on the HTTP-Redirect binding, SigAlg and Signature in the query.
    ...(row.saml_sign_authn_requests === 1 && { privateKey: keys.privateKeyPem, signatureAlgorithm: 'sha256' as const }),
    ...(requestId && { generateUniqueId: () => requestId }),
  });
}

/**
 * The SP metadata an IdP imports: our entity id and ACS (POST binding), signed assertions wanted, the
 * connection's certificate as KeyDescriptor for signing (its AuthnRequests) and encryption (assertions to it).
 */
export function spMetadataOf(config: Pick<Config, 'appUrl'>, row: SsoConnectionRow, keys: SpKeyPair): string {
  const xml = generateServiceProviderMetadata({
    issuer: spEntityIdOf(config, row.id),
    callbackUrl: acsUrlOf(config, row.id),
    identifierFormat: EMAIL_NAME_ID,
    wantAssertionsSigned: true,
    // node-saml lists a certificate only with its private key (it does not sign the metadata).
    privateKey: keys.privateKeyPem,
    publicCerts: keys.certificatePem,
    decryptionPvk: keys.privateKeyPem,
    decryptionCert: keys.certificatePem,
  });
  // The signing certificate is always listed; AuthnRequestsSigned says whether requests are signed now.
  return row.saml_sign_authn_requests === 1 ? xml : xml.replace('AuthnRequestsSigned="true"', 'AuthnRequestsSigned="false"');
}

/** The IdP's URL with our AuthnRequest (HTTP-Redirect binding), whose ID is `requestId`. */
export function authnRequestUrl(config: Pick<Config, 'appUrl'>, row: SsoConnectionRow, keys: SpKeyPair, requestId: string, relayState: string): Promise<string> {
  return clientOf(config, row, keys, requestId).getAuthorizeUrlAsync(relayState, undefined, {});
}

/** What a valid assertion says, read from the signed assertion only. */
export interface SamlAssertion {
  id: string;
  /** Null for an IdP-initiated sign-in. */
  inResponseTo: string | null;
  nameId: string;
  /** Until when the assertion id must be remembered. */
  expiresAt: Date;
  attributes: Record<string, string[]>;
}

/**
 * Validates a POSTed SAMLResponse: a valid signature over the response or the assertion by one of
 * the IdP's certificates, signature wrapping refused (node-saml reads only what the signature covers,
 * one assertion at most), audience, timestamps with SAML_CLOCK_SKEW_MS; then, from the signed assertion,
 * its issuer, a bearer SubjectConfirmationData whose Recipient is our ACS, and the response's Destination
 * when it names one. Throws SamlRefusal with the reason.
 */
export async function validateSamlResponse(config: Pick<Config, 'appUrl'>, row: SsoConnectionRow, keys: SpKeyPair, samlResponse: string, now: Date): Promise<SamlAssertion> {
  const acsUrl = acsUrlOf(config, row.id);
  if (row.saml_require_encrypted_assertions === 1) requireEncryptedAssertion(samlResponse);
  let profile: Profile | null;
  try {
    ({ profile } = await clientOf(config, row, keys).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw new SamlRefusal(error instanceof Error ? error.message : 'invalid SAML response');
  }
  if (!profile?.getAssertionXml) throw new SamlRefusal('no assertion');
  try {
    const response = parseSamlXml(Buffer.from(samlResponse, 'base64').toString('utf8')).documentElement;
    const destination = response.getAttribute('Destination');
    if (destination && destination !== acsUrl) throw new SamlRefusal(`Destination ${destination} is not this connection's ACS`);

    const assertion = parseSamlXml(profile.getAssertionXml()).documentElement;
    const id = assertion.getAttribute('ID');
    if (!id) throw new SamlRefusal('the assertion has no ID');
    const issuer = selectOne(assertion, localPath('Issuer'))?.textContent?.trim();
    if (issuer !== row.saml_idp_entity_id) throw new SamlRefusal(`issuer ${issuer ?? '(none)'} is not the connection's IdP`);
    const confirmations = selectAll(assertion, `${localPath('Subject', 'SubjectConfirmation')}[@Method='urn:oasis:names:tc:SAML:2.0:cm:bearer']/${localPath('SubjectConfirmationData')}`);
    const confirmation = confirmations.find((data) => data.getAttribute('Recipient') === acsUrl);
    if (!confirmation) throw new SamlRefusal("no bearer SubjectConfirmation whose Recipient is this connection's ACS");
    const inResponseTo = confirmation.getAttribute('InResponseTo') || null;
    const nameId = selectOne(assertion, localPath('Subject', 'NameID'))?.textContent?.trim();
    if (!nameId) throw new SamlRefusal('the assertion has no NameID');
    const ends = [confirmation.getAttribute('NotOnOrAfter'), selectOne(assertion, localPath('Conditions'))?.getAttribute('NotOnOrAfter')]
      .filter((value): value is string => Boolean(value))
      .map((value) => new Date(value).getTime())
      .filter((value) => Number.isFinite(value));
    const expiresAt = new Date(Math.max(now.getTime() + SAML_CLOCK_SKEW_MS, Math.min(now.getTime() + SAML_MAX_ASSERTION_AGE_MS, ...ends)) + SAML_CLOCK_SKEW_MS);
    const attributes: Record<string, string[]> = {};
    for (const attribute of selectAll(assertion, `${localPath('AttributeStatement', 'Attribute')}`)) {
      const name = attribute.getAttribute('Name');
      if (!name) continue;
      const values = selectAll(attribute, localPath('AttributeValue')).map((value) => (value.textContent ?? '').trim()).filter(Boolean);
      attributes[name] = [...(attributes[name] ?? []), ...values];
    }
    return { id, inResponseTo, nameId, expiresAt, attributes };
  } catch (error) {
    if (error instanceof SamlRefusal) throw error;
    if (error instanceof SamlXmlError) throw new SamlRefusal(error.message);
    throw error;
  }
}

/** For a connection that requires encryption: the response holds no plain Assertion, one EncryptedAssertion. */
function requireEncryptedAssertion(samlResponse: string): void {
  let response: Element;
  try {
    response = parseSamlXml(Buffer.from(samlResponse, 'base64').toString('utf8')).documentElement;
  } catch (error) {
    throw new SamlRefusal(error instanceof Error ? error.message : 'invalid SAML response');
  }
  if (selectAll(response, `//${localPath('Assertion')}`).length > 0 || selectAll(response, `//${localPath('EncryptedAssertion')}`).length !== 1) {
    throw new SamlRefusal('this connection requires an encrypted assertion');
  }
}

/** The InResponseTo a response claims, unverified: only to tell the app that asked that its sign-in failed. */
export function claimedInResponseTo(samlResponse: string): string | null {
  try {
    return parseSamlXml(Buffer.from(samlResponse, 'base64').toString('utf8')).documentElement.getAttribute('InResponseTo') || null;
  } catch {
    return null;
  }
}
