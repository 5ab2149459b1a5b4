import { createVerify, randomUUID, X509Certificate } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import { encrypt } from 'xml-encryption';
import { IDP_CERT, IDP_KEY } from './saml-keys.js';

/**
 * A SAML 2.0 identity provider for tests, written with xml-crypto so a test can craft any response:
 * signed over the assertion, the response, both or nothing, by the IdP's key or another, for any
 * audience, recipient, destination, time window or InResponseTo, and wrapped ones.
 */

export const IDP_ENTITY_ID = 'https://idp.example/saml/metadata';
export const IDP_SSO_URL = 'https://idp.example/saml/sso';

const base64Of = (pem: string) => new X509Certificate(pem).raw.toString('base64');

export function idpMetadataXml(options: { entityId?: string; ssoUrl?: string; cert?: string } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${options.entityId ?? IDP_ENTITY_ID}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${base64Of(options.cert ?? IDP_CERT)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${options.ssoUrl ?? IDP_SSO_URL}"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${options.ssoUrl ?? IDP_SSO_URL}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

export interface AuthnRequest {
  id: string;
  issuer: string;
  acsUrl: string;
  destination: string;
  relayState: string | null;
  /** The HTTP-Redirect binding's signature parameters; null for an unsigned request. */
  signature: { sigAlg: string; signature: string } | null;
}

/** What the IdP receives on its SSO URL (HTTP-Redirect binding: deflated, base64, in the query). */
export function readAuthnRequest(url: string): AuthnRequest {
  const parsed = new URL(url);
  const xml = inflateRawSync(Buffer.from(parsed.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  const attribute = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(xml)?.[1] ?? '';
  return {
    id: attribute('ID'),
    acsUrl: attribute('AssertionConsumerServiceURL'),
    destination: attribute('Destination'),
    issuer: /<(?:saml:)?Issuer[^>]*>([^<]*)</.exec(xml)?.[1] ?? '',
    relayState: parsed.searchParams.get('RelayState'),
    signature: parsed.searchParams.has('Signature') ? { sigAlg: parsed.searchParams.get('SigAlg') ?? '', signature: parsed.searchParams.get('Signature')! } : null,
  };
}

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

/**
 * Checks an HTTP-Redirect AuthnRequest's signature as an IdP does (SAML bindings 3.4.4.1): RSA-SHA256 by
 * `certificate` over the query's own `SAMLRequest=…&RelayState=…&SigAlg=…`, as they are encoded in the URL.
 */
export function verifyRedirectSignature(url: string, certificate: string): boolean {
  const raw = new Map(new URL(url).search.slice(1).split('&').map((pair) => [pair.slice(0, pair.indexOf('=')), pair] as const));
  const parsed = new URL(url).searchParams;
  if (parsed.get('SigAlg') !== RSA_SHA256 || !parsed.get('Signature') || !raw.has('SAMLRequest')) return false;
  const signed = ['SAMLRequest', 'RelayState', 'SigAlg'].flatMap((name) => (raw.has(name) ? [raw.get(name)!] : [])).join('&');
  return createVerify('RSA-SHA256').update(signed).verify(new X509Certificate(certificate).publicKey, parsed.get('Signature')!, 'base64');
}

export interface ResponseOptions {
  acsUrl: string;
  audience: string;
  nameId: string;
  inResponseTo?: string | null;
  /** Defaults to acsUrl; null leaves it out. */
  destination?: string | null;
  recipient?: string;
  issuer?: string;
  attributes?: Record<string, string | string[]>;
  /** Defaults: now - 1 min, now + 5 min. */
  notBefore?: Date;
  notOnOrAfter?: Date;
  assertionId?: string;
  sign?: 'assertion' | 'response' | 'both' | 'none';
  key?: string;
  cert?: string;
}

const escapeXml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function assertionXml(o: ResponseOptions, now = new Date()): string {
  const issued = now.toISOString();
  const notBefore = (o.notBefore ?? new Date(now.getTime() - 60_000)).toISOString();
  const notOnOrAfter = (o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
  const inResponseTo = o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : '';
  const attributes = Object.entries(o.attributes ?? {})
    .map(([name, values]) => `<saml:Attribute Name="${escapeXml(name)}">${(Array.isArray(values) ? values : [values]).map((value) => `<saml:AttributeValue>${escapeXml(value)}</saml:AttributeValue>`).join('')}</saml:Attribute>`)
    .join('');
  return (
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${o.assertionId ?? `_a${randomUUID().replace(/-/g, '')}`}" Version="2.0" IssueInstant="${issued}">` +
    `<saml:Issuer>${escapeXml(o.issuer ?? IDP_ENTITY_ID)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${escapeXml(o.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${escapeXml(o.recipient ?? o.acsUrl)}"${inResponseTo}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${escapeXml(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="_s${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
    `</saml:Assertion>`
  );
}

function responseXml(o: ResponseOptions, assertion: string, now = new Date()): string {
  const destination = o.destination === null ? '' : ` Destination="${escapeXml(o.destination ?? o.acsUrl)}"`;
  const inResponseTo = o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : '';
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID().replace(/-/g, '')}" Version="2.0" IssueInstant="${now.toISOString()}"${destination}${inResponseTo}>` +
    `<saml:Issuer>${escapeXml(o.issuer ?? IDP_ENTITY_ID)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    assertion +
    `</samlp:Response>`
  );
}

/** Signs the element `local` (Assertion or Response) of the document, the signature right after its Issuer. */
export function signElement(xml: string, local: 'Assertion' | 'Response', key = IDP_KEY, cert = IDP_CERT): string {
  const signer = new SignedXml({
    privateKey: key,
    publicCert: cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const element = local === 'Response' ? "/*[local-name(.)='Response']" : "//*[local-name(.)='Assertion']";
  signer.addReference({
    xpath: element,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, { location: { reference: `${element}/*[local-name(.)='Issuer']`, action: 'after' } });
  return signer.getSignedXml();
}

/** XML Encryption of `xml` to `certificate` (RSA-OAEP key transport, AES-256-GCM or -CBC content), as an IdP encrypts to an SP. */
export function encryptXml(xml: string, certificate: string, algorithm: 'aes256-gcm' | 'aes256-cbc' = 'aes256-gcm'): Promise<string> {
  return new Promise((resolve, reject) => {
    encrypt(
      xml,
      {
        rsa_pub: new X509Certificate(certificate).publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        pem: certificate,
        encryptionAlgorithm: algorithm === 'aes256-gcm' ? 'http://www.w3.org/2009/xmlenc11#aes256-gcm' : 'http://www.w3.org/2001/04/xmlenc#aes256-cbc',
        keyEncryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p',
        disallowEncryptionWithInsecureAlgorithm: true,
        warnInsecureAlgorithm: false,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/**
 * A Response whose assertion (signed as `o.sign` says: 'assertion' inside the encryption, 'response'
 * around it) is encrypted to `certificate` in an EncryptedAssertion.
 */
export async function encryptedSamlResponse(o: ResponseOptions, certificate: string, algorithm?: 'aes256-gcm' | 'aes256-cbc'): Promise<string> {
  const sign = o.sign ?? 'assertion';
  let assertion = assertionXml(o);
  if (sign === 'assertion' || sign === 'both') assertion = signElement(assertion, 'Assertion', o.key, o.cert);
  const encrypted = `<saml:EncryptedAssertion>${await encryptXml(assertion, certificate, algorithm)}</saml:EncryptedAssertion>`;
  let xml = responseXml(o, encrypted);
  if (sign === 'response' || sign === 'both') xml = signElement(xml, 'Response', o.key, o.cert);
  return Buffer.from(xml).toString('base64');
}

/** A Response as the IdP POSTs it (base64 of the XML). */
export function samlResponse(o: ResponseOptions): string {
  const sign = o.sign ?? 'assertion';
  let assertion = assertionXml(o);
  if (sign === 'assertion' || sign === 'both') assertion = signElement(assertion, 'Assertion', o.key, o.cert);
  let xml = responseXml(o, assertion);
  if (sign === 'response' || sign === 'both') xml = signElement(xml, 'Response', o.key, o.cert);
  return Buffer.from(xml).toString('base64');
}

/**
 * XML signature wrapping: a forged assertion for `evilNameId` takes the real one's place, and the real
 * signed assertion is kept where a naive verifier still finds (and checks) its signature.
 *  - 'advice': the signed assertion hidden inside the forged one's Advice;
 *  - 'sibling': the signed assertion moved into the Response's Extensions, the forged one with its ID.
 */
export function wrappedSamlResponse(o: ResponseOptions, evilNameId: string, variant: 'advice' | 'sibling'): string {
  const real = signElement(assertionXml(o), 'Assertion', o.key, o.cert);
  const realId = /ID="([^"]+)"/.exec(real)![1];
  const forged = assertionXml({ ...o, nameId: evilNameId, assertionId: variant === 'sibling' ? realId : undefined });
  let xml: string;
  if (variant === 'advice') {
    const withAdvice = forged.replace('<saml:AuthnStatement', `<saml:Advice>${real}</saml:Advice><saml:AuthnStatement`);
    xml = responseXml(o, withAdvice);
  } else {
    xml = responseXml(o, forged).replace('<samlp:Status>', `<samlp:Extensions>${real}</samlp:Extensions><samlp:Status>`);
  }
  return Buffer.from(xml).toString('base64');
}
