import { X509Certificate } from 'node:crypto';
import {
  caBundleAfterRotation,
  CertBundle,
  generateCA,
  generateServingCert,
  rotationDecision,
  splitPems,
} from './certs';

const DAY = 86_400_000;
const hosts = {
  dnsNames: ['hooks.airunway-system.svc'],
  ipAddresses: ['127.0.0.1'],
};

async function bundle(
  now: Date,
  caDays = 3650,
  certDays = 365,
): Promise<CertBundle> {
  const ca = await generateCA('runway-webhook-ca', caDays * DAY, now);
  const serving = await generateServingCert(ca, hosts, certDays * DAY, now);
  return {
    caCert: ca.cert,
    caKey: ca.key,
    cert: serving.cert,
    key: serving.key,
  };
}

describe('certificates', () => {
  const now = new Date('2030-01-01T00:00:00Z');

  it('makes a serving certificate for every host, signed by the CA', async () => {
    const b = await bundle(now);
    const cert = new X509Certificate(b.cert);
    const ca = new X509Certificate(b.caCert);
    expect(cert.checkIssued(ca)).toBe(true);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.checkHost('hooks.airunway-system.svc')).toBe(
      'hooks.airunway-system.svc',
    );
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(ca.ca).toBe(true);
    expect(cert.ca).toBe(false);
  });

  it('never outlives its CA', async () => {
    const b = await bundle(now, 10, 365);
    expect(Date.parse(new X509Certificate(b.cert).validTo)).toBeLessThanOrEqual(
      Date.parse(new X509Certificate(b.caCert).validTo),
    );
  });

  it('refuses to make a certificate for no host', async () => {
    const ca = await generateCA('x', DAY, now);
    await expect(
      generateServingCert(ca, { dnsNames: [], ipAddresses: [] }, DAY, now),
    ).rejects.toThrow(/webhook.hosts/);
  });
});

describe('rotationDecision', () => {
  const now = new Date('2030-01-01T00:00:00Z');
  let good: CertBundle;
  beforeAll(async () => {
    good = await bundle(now, 3650, 365);
  });

  it('keeps a valid bundle and says when to renew', () => {
    const d = rotationDecision(good, hosts, now, 30 * DAY);
    expect(d.rotate).toBe('none');
    const renewAt = d.rotate === 'none' ? d.renewAt.getTime() : 0;
    expect(Math.abs(renewAt - (now.getTime() + 335 * DAY))).toBeLessThan(
      2 * DAY,
    );
  });

  it('rotates everything without a bundle or with an unreadable CA', () => {
    expect(rotationDecision(undefined, hosts, now, DAY).rotate).toBe('all');
    expect(
      rotationDecision({ ...good, caCert: 'garbage' }, hosts, now, DAY).rotate,
    ).toBe('all');
  });

  it('rotates the serving certificate inside the lookahead window', () => {
    const later = new Date(now.getTime() + 340 * DAY);
    expect(rotationDecision(good, hosts, later, 30 * DAY)).toMatchObject({
      rotate: 'serving',
      reason: expect.stringContaining('expires'),
    });
  });

  it('rotates everything when the CA nears expiry', async () => {
    const shortCa = await bundle(now, 20, 10);
    expect(rotationDecision(shortCa, hosts, now, 30 * DAY).rotate).toBe('all');
  });

  it('rotates the serving certificate when a host is missing, the key mismatches or the CA changed', async () => {
    expect(
      rotationDecision(good, { ...hosts, dnsNames: ['other.svc'] }, now, DAY),
    ).toMatchObject({
      rotate: 'serving',
      reason: expect.stringContaining('other.svc'),
    });
    const other = await bundle(now);
    expect(
      rotationDecision({ ...good, key: other.key }, hosts, now, DAY).rotate,
    ).toBe('serving');
    expect(
      rotationDecision(
        { ...good, caCert: other.caCert, caKey: other.caKey },
        hosts,
        now,
        DAY,
      ),
    ).toMatchObject({
      rotate: 'serving',
      reason: expect.stringContaining('not signed by the current CA'),
    });
  });
});

describe('caBundleAfterRotation', () => {
  it('keeps the previous CA while it is valid, and only one previous CA', async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const a = await generateCA('a', 10 * DAY, now);
    const b = await generateCA('b', 10 * DAY, now);
    const c = await generateCA('c', 10 * DAY, now);
    const ab = caBundleAfterRotation(b.cert, a.cert, now);
    expect(splitPems(ab)).toHaveLength(2);
    const cba = caBundleAfterRotation(c.cert, ab, now);
    expect(splitPems(cba).map(p => new X509Certificate(p).subject)).toEqual([
      'CN=c',
      'CN=b',
    ]);
    const afterExpiry = caBundleAfterRotation(
      c.cert,
      ab,
      new Date(now.getTime() + 11 * DAY),
    );
    expect(splitPems(afterExpiry)).toHaveLength(1);
  });
});
