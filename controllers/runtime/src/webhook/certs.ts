import {
  createPrivateKey,
  createPublicKey,
  KeyObject,
  randomBytes,
  webcrypto,
  X509Certificate,
} from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/** PEM-encoded CA and serving certificate with their keys. @public */
export interface CertBundle {
  /** The current CA first, possibly followed by the previous CA (trusted during a CA rotation). */
  caCert: string;
  caKey: string;
  cert: string;
  key: string;
}

/** The names the serving certificate must be valid for. @public */
export interface CertHosts {
  dnsNames: string[];
  ipAddresses: string[];
}

const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

async function newKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(algorithm, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
}

function serialNumber(): string {
  // Positive 128-bit serial: clear the top bit.
  const bytes = randomBytes(16);
  bytes[0] &= 0x7f;
  return bytes.toString('hex');
}

function keyPem(key: CryptoKey): string {
  return KeyObject.from(key)
    .export({ type: 'pkcs8', format: 'pem' })
    .toString();
}

/** A self-signed CA valid from a minute ago (clock skew) for `validityMs`. @public */
export async function generateCA(
  commonName: string,
  validityMs: number,
  now: Date = new Date(),
): Promise<{ cert: string; key: string }> {
  const keys = await newKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: `CN=${commonName}`,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + validityMs),
    signingAlgorithm: algorithm,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: cert.toString('pem'), key: keyPem(keys.privateKey) };
}

/** A serving certificate for `hosts`, signed by the CA. @public */
export async function generateServingCert(
  ca: { cert: string; key: string },
  hosts: CertHosts,
  validityMs: number,
  now: Date = new Date(),
): Promise<{ cert: string; key: string }> {
  if (hosts.dnsNames.length + hosts.ipAddresses.length === 0) {
    throw new Error(
      'the serving certificate needs at least one DNS name or IP address: set webhook.hosts',
    );
  }
  const caCert = new x509.X509Certificate(firstPem(ca.cert));
  const caKey = (await webcrypto.subtle.importKey(
    'pkcs8',
    createPrivateKey(ca.key).export({ type: 'pkcs8', format: 'der' }),
    algorithm,
    false,
    ['sign'],
  )) as unknown as CryptoKey;
  const keys = await newKeys();
  const notAfter = Math.min(
    now.getTime() + validityMs,
    caCert.notAfter.getTime(),
  );
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: `CN=${hosts.dnsNames[0] ?? hosts.ipAddresses[0]}`,
    issuer: caCert.subject,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(notAfter),
    signingAlgorithm: algorithm,
    publicKey: keys.publicKey,
    signingKey: caKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature |
          x509.KeyUsageFlags.keyEncipherment,
        true,
      ),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        ...hosts.dnsNames.map(value => ({ type: 'dns' as const, value })),
        ...hosts.ipAddresses.map(value => ({ type: 'ip' as const, value })),
      ]),
    ],
  });
  return { cert: cert.toString('pem'), key: keyPem(keys.privateKey) };
}

/** @public */
export type RotationDecision =
  | { rotate: 'none'; renewAt: Date }
  | { rotate: 'serving' | 'all'; reason: string };

/**
 * Whether the bundle can keep serving: the CA must be valid beyond the
 * lookahead; the serving certificate must be issued by it, match its key,
 * cover every host and also be valid beyond the lookahead. `renewAt` says
 * when the answer will change.
 *
 * @public
 */
export function rotationDecision(
  bundle: CertBundle | undefined,
  hosts: CertHosts,
  now: Date,
  lookaheadMs: number,
): RotationDecision {
  if (!bundle) return { rotate: 'all', reason: 'no certificate yet' };
  let ca: X509Certificate;
  try {
    ca = new X509Certificate(firstPem(bundle.caCert));
    if (!samePublicKey(ca.publicKey, bundle.caKey))
      return {
        rotate: 'all',
        reason: 'CA key does not match the CA certificate',
      };
  } catch {
    return { rotate: 'all', reason: 'CA certificate or key cannot be read' };
  }
  const caRenewAt = new Date(Date.parse(ca.validTo) - lookaheadMs);
  if (caRenewAt <= now)
    return { rotate: 'all', reason: `CA expires ${ca.validTo}` };
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(bundle.cert);
    if (!samePublicKey(cert.publicKey, bundle.key))
      return {
        rotate: 'serving',
        reason: 'key does not match the certificate',
      };
  } catch {
    return {
      rotate: 'serving',
      reason: 'serving certificate or key cannot be read',
    };
  }
  if (!cert.checkIssued(ca) || !cert.verify(ca.publicKey)) {
    return {
      rotate: 'serving',
      reason: 'serving certificate is not signed by the current CA',
    };
  }
  const missing = [
    ...hosts.dnsNames.filter(
      h => cert.checkHost(h, { wildcards: false }) !== h,
    ),
    ...hosts.ipAddresses.filter(ip => cert.checkIP(ip) !== ip),
  ];
  if (missing.length > 0)
    return {
      rotate: 'serving',
      reason: `serving certificate does not cover ${missing.join(', ')}`,
    };
  const certRenewAt = new Date(Date.parse(cert.validTo) - lookaheadMs);
  if (certRenewAt <= now)
    return {
      rotate: 'serving',
      reason: `serving certificate expires ${cert.validTo}`,
    };
  return {
    rotate: 'none',
    renewAt: certRenewAt < caRenewAt ? certRenewAt : caRenewAt,
  };
}

/** The CA bundle to publish: the new CA, plus the old one while it is still valid. @public */
export function caBundleAfterRotation(
  newCa: string,
  previousBundle: string | undefined,
  now: Date,
): string {
  const kept = splitPems(previousBundle ?? '')
    .slice(0, 1)
    .filter(pem => {
      try {
        return Date.parse(new X509Certificate(pem).validTo) > now.getTime();
      } catch {
        return false;
      }
    });
  return `${[newCa.trim(), ...kept].join('\n')}\n`;
}

/** @public */
export function splitPems(bundle: string): string[] {
  return (
    bundle.match(
      /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g,
    ) ?? []
  );
}

function firstPem(bundle: string): string {
  const first = splitPems(bundle)[0];
  if (!first) throw new Error('no PEM certificate found');
  return first;
}

function samePublicKey(certKey: KeyObject, privateKeyPem: string): boolean {
  const fromKey = createPublicKey(privateKeyPem).export({
    type: 'spki',
    format: 'der',
  });
  return certKey.export({ type: 'spki', format: 'der' }).equals(fromKey);
}
