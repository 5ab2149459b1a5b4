import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';

/** A SAML document read without DTDs (no entity expansion), namespaces by local name. */
export function parseSamlXml(xml: string): Document {
  if (/<!DOCTYPE/i.test(xml)) throw new SamlXmlError('XML with a DOCTYPE is refused');
  const errors: string[] = [];
  const doc = new DOMParser({
    errorHandler: (level: string, message: unknown) => {
      if (level !== 'warning') errors.push(String(message));
    },
  }).parseFromString(xml, 'text/xml');
  if (errors.length > 0 || !doc?.documentElement) throw new SamlXmlError('not well-formed XML');
  return doc as unknown as Document;
}

export class SamlXmlError extends Error {}

/** Elements at a path of local names (`//` for any depth), from a node. */
export function selectAll(node: Node, path: string): Element[] {
  return xpath.select(path, node) as Element[];
}

export function selectOne(node: Node, path: string): Element | undefined {
  return selectAll(node, path)[0];
}

export function localPath(...names: string[]): string {
  return names.map((name) => `*[local-name()='${name}']`).join('/');
}

export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  /** Base64 DER, as in the metadata. */
  certificates: string[];
}

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/**
 * What we need from an IdP's metadata: its entity id, where to send the AuthnRequest (HTTP-Redirect
 * binding) and the certificates it signs with (valid X.509). A message naming what is missing otherwise.
 */
export function readIdpMetadata(xml: string, now: Date): IdpMetadata {
  const doc = parseSamlXml(xml);
  const root = doc.documentElement;
  const descriptors = root.localName === 'EntityDescriptor' ? [root] : selectAll(doc, `//${localPath('EntityDescriptor')}`);
  const entity = descriptors.find((candidate) => selectOne(candidate, localPath('IDPSSODescriptor')));
  if (!entity) throw new SamlXmlError('no EntityDescriptor with an IDPSSODescriptor');
  const entityId = entity.getAttribute('entityID');
  if (!entityId) throw new SamlXmlError('the EntityDescriptor has no entityID');
  const idp = selectOne(entity, localPath('IDPSSODescriptor'))!;
  const sso = selectAll(idp, localPath('SingleSignOnService')).find((service) => service.getAttribute('Binding') === REDIRECT_BINDING);
  const ssoUrl = sso?.getAttribute('Location');
  if (!ssoUrl || !/^https?:\/\//i.test(ssoUrl)) throw new SamlXmlError('no SingleSignOnService with the HTTP-Redirect binding and an http(s) Location');
  const certificates: string[] = [];
  for (const key of selectAll(idp, localPath('KeyDescriptor'))) {
    const use = key.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const cert of selectAll(key, `.//${localPath('X509Certificate')}`)) {
      const base64 = (cert.textContent ?? '').replace(/\s+/g, '');
      if (!base64 || certificates.includes(base64)) continue;
      const parsed = certificateOf(base64);
      if (!parsed) throw new SamlXmlError('a signing certificate is not a valid X.509 certificate');
      if (new Date(parsed.validTo) <= now) throw new SamlXmlError(`the signing certificate expired on ${new Date(parsed.validTo).toISOString()}`);
      certificates.push(base64);
    }
  }
  if (certificates.length === 0) throw new SamlXmlError('no signing certificate (KeyDescriptor with an X509Certificate)');
  return { entityId, ssoUrl, certificates };
}

export function certificateOf(base64: string): X509Certificate | null {
  try {
    return new X509Certificate(Buffer.from(base64, 'base64'));
  } catch {
    return null;
  }
}

export function pemOf(base64: string): string {
  return `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
}
