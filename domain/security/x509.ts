// X.509 certificates for Temporal's mutual TLS (docs/operations.md#temporal-mtls), built with node:crypto alone: the
// image has no openssl binary, and a certificate library would be one more dependency holding the CA key. Only
// what TLS verifiers (Go's crypto/tls on the server, rustls in the SDK, OpenSSL) need: ECDSA P-256 keys, v3
// with basic constraints, key usage, extended key usage, subject alternative names and key identifiers.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/** DER: tag, definite length, contents. */
function der(tag: number, ...contents: Uint8Array[]): Buffer {
  const body = Buffer.concat(contents);
  const length =
    body.length < 0x80
      ? Buffer.from([body.length])
      : (() => {
          const bytes: number[] = [];
          for (let n = body.length; n > 0; n >>= 8) bytes.unshift(n & 0xff);
          return Buffer.from([0x80 | bytes.length, ...bytes]);
        })();
  return Buffer.concat([Buffer.from([tag]), length, body]);
}

const sequence = (...items: Uint8Array[]) => der(0x30, ...items);
const set = (...items: Uint8Array[]) => der(0x31, ...items);
const octetString = (bytes: Uint8Array) => der(0x04, bytes);
const bitString = (bytes: Uint8Array, unusedBits = 0) => der(0x03, Buffer.from([unusedBits]), bytes);
const utf8String = (text: string) => der(0x0c, Buffer.from(text, 'utf8'));
const boolean = (value: boolean) => der(0x01, Buffer.from([value ? 0xff : 0x00]));

/** A non-negative INTEGER from big-endian bytes: a leading zero where the top bit is set, none redundant. */
function unsignedInteger(bytes: Uint8Array): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0 && (bytes[start + 1] ?? 0) < 0x80) start++;
  const trimmed = bytes.subarray(start);
  return der(0x02, (trimmed[0] ?? 0) >= 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * first + second];
  for (const arc of rest) {
    const groups = [arc & 0x7f];
    for (let n = Math.floor(arc / 128); n > 0; n = Math.floor(n / 128)) groups.unshift((n & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return der(0x06, Buffer.from(bytes));
}

/** UTCTime through 2049, GeneralizedTime after, as RFC 5280 requires. */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050 ? der(0x17, Buffer.from(`${iso.slice(2)}Z`)) : der(0x18, Buffer.from(`${iso}Z`));
}

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

export const CERTIFICATE_ORGANIZATION = 'stablecoin-checkout';

const name = (commonName: string) =>
  sequence(
    set(sequence(oid(OID.organization), utf8String(CERTIFICATE_ORGANIZATION))),
    set(sequence(oid(OID.commonName), utf8String(commonName))),
  );

const extension = (id: string, critical: boolean, value: Uint8Array) =>
  sequence(oid(id), ...(critical ? [boolean(true)] : []), octetString(value));

/** The key identifier RFC 5280 suggests: SHA-1 of the subjectPublicKey bits. */
function keyIdentifier(publicKey: KeyObject): Buffer {
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  // An EC P-256 SPKI ends with its BIT STRING of 1 unused-bits byte and the 65-byte uncompressed point.
  return createHash('sha1')
    .update(spki.subarray(spki.length - 65))
    .digest();
}

export type ExtendedKeyUsage = 'serverAuth' | 'clientAuth';

export interface CertificateRequest {
  commonName: string;
  publicKey: KeyObject;
  /** Who signs: a root CA names itself here, with its own keys. */
  issuer: { commonName: string; privateKey: KeyObject; publicKey: KeyObject };
  notBefore: Date;
  notAfter: Date;
  isCa: boolean;
  extendedKeyUsage?: ExtendedKeyUsage[];
  dnsNames?: string[];
  serialNumber?: Uint8Array;
}

/** A DER certificate as PEM. */
export function issueCertificate(request: CertificateRequest): string {
  const serial = request.serialNumber ?? Buffer.from(randomBytes(16).map((byte, i) => (i === 0 ? byte & 0x7f : byte)));
  const algorithm = sequence(oid(OID.ecdsaWithSha256));
  // keyCertSign and cRLSign (bits 5 and 6) for a CA; digitalSignature (bit 0) for a leaf's ECDSA handshake.
  const keyUsage = request.isCa ? bitString(Buffer.from([0x06]), 1) : bitString(Buffer.from([0x80]), 7);
  const extensions = [
    extension(OID.basicConstraints, true, request.isCa ? sequence(boolean(true), unsignedInteger(Buffer.from([0]))) : sequence()),
    extension(OID.keyUsage, true, keyUsage),
    extension(OID.subjectKeyIdentifier, false, octetString(keyIdentifier(request.publicKey))),
    extension(OID.authorityKeyIdentifier, false, sequence(der(0x80, keyIdentifier(request.issuer.publicKey)))),
    ...(request.extendedKeyUsage?.length
      ? [extension(OID.extKeyUsage, false, sequence(...request.extendedKeyUsage.map((usage) => oid(OID[usage]))))]
      : []),
    ...(request.dnsNames?.length
      ? [extension(OID.subjectAltName, false, sequence(...request.dnsNames.map((dns) => der(0x82, Buffer.from(dns, 'ascii')))))]
      : []),
  ];
  const tbs = sequence(
    der(0xa0, unsignedInteger(Buffer.from([2]))),
    unsignedInteger(serial),
    algorithm,
    name(request.issuer.commonName),
    sequence(time(request.notBefore), time(request.notAfter)),
    name(request.commonName),
    request.publicKey.export({ type: 'spki', format: 'der' }),
    der(0xa3, sequence(...extensions)),
  );
  const signature = sign('sha256', tbs, { key: request.issuer.privateKey, dsaEncoding: 'der' });
  const certificate = sequence(tbs, algorithm, bitString(signature));
  const base64 = certificate.toString('base64').replace(/(.{64})/g, '$1\n');
  return `-----BEGIN CERTIFICATE-----\n${base64.replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
}

export function generateKeyPair(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' });
}
