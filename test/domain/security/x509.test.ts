import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateKeyPair, issueCertificate } from '../../../domain/security/x509';

describe('issueCertificate', () => {
  const ca = generateKeyPair();
  const issuer = { commonName: 'test-ca', ...ca };
  const root = new X509Certificate(
    issueCertificate({
      commonName: 'test-ca',
      publicKey: ca.publicKey,
      issuer,
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2036-01-01T00:00:00Z'),
      isCa: true,
    }),
  );

  it('makes a self-signed CA', () => {
    expect(root.ca).toBe(true);
    expect(root.subject).toBe('O=stablecoin-checkout\nCN=test-ca');
    expect(root.checkIssued(root) && root.verify(ca.publicKey)).toBe(true);
  });

  it('signs a leaf with its names and usages, dates past 2049 as GeneralizedTime, and a serial whose top bit is set', () => {
    const leaf = generateKeyPair();
    const certificate = new X509Certificate(
      issueCertificate({
        commonName: 'temporal',
        publicKey: leaf.publicKey,
        issuer,
        notBefore: new Date('2049-12-31T23:59:59Z'),
        notAfter: new Date('2060-06-30T12:00:00Z'),
        isCa: false,
        extendedKeyUsage: ['serverAuth'],
        dnsNames: ['temporal', 'temporal.internal'],
        serialNumber: Uint8Array.from([0xff, 0x01]),
      }),
    );
    expect(certificate.ca).toBe(false);
    expect(certificate.checkIssued(root) && certificate.verify(ca.publicKey)).toBe(true);
    expect(certificate.subjectAltName).toBe('DNS:temporal, DNS:temporal.internal');
    expect(certificate.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(new Date(certificate.validFrom).toISOString()).toBe('2049-12-31T23:59:59.000Z');
    expect(new Date(certificate.validTo).toISOString()).toBe('2060-06-30T12:00:00.000Z');
    expect(certificate.serialNumber).toBe('FF01');
    expect(certificate.publicKey.equals(leaf.publicKey)).toBe(true);
  });
});
