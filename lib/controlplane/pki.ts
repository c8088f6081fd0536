import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

// Certificates for a loopback-only control plane: one CA, the apiserver's serving
// certificate, and client certificates. ECDSA P-256 keeps generation to milliseconds.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const validity = () => {
  const notBefore = new Date(Date.now() - 60_000);
  return { notBefore, notAfter: new Date(notBefore.getTime() + 365 * 24 * 3600_000) };
};

export interface Pem {
  cert: string;
  key: string;
}

export interface ControlPlanePki {
  ca: Pem;
  apiserver: Pem;
  admin: Pem;
  /** Key pair the apiserver signs and verifies service-account tokens with. */
  serviceAccount: { publicKey: string; privateKey: string };
}

const keyPair = () =>
  webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
const privatePem = async (key: CryptoKey) =>
  x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
const publicPem = async (key: CryptoKey) =>
  x509.PemConverter.encode(await webcrypto.subtle.exportKey('spki', key), 'PUBLIC KEY');

let serial = Date.now();
const nextSerial = () => (serial++).toString(16).padStart(16, '0');

async function issue(
  ca: { cert: x509.X509Certificate; keys: CryptoKeyPair },
  subject: string,
  usage: 'server' | 'client',
): Promise<Pem> {
  const keys = await keyPair();
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(
      x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
      true,
    ),
    new x509.ExtendedKeyUsageExtension([
      usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth,
    ]),
    await x509.AuthorityKeyIdentifierExtension.create(ca.cert),
  ];
  if (usage === 'server') {
    extensions.push(
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'dns', value: 'localhost' },
        { type: 'dns', value: 'kubernetes.default.svc' },
      ]),
    );
  }
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: nextSerial(),
    subject,
    issuer: ca.cert.subject,
    ...validity(),
    signingAlgorithm: algorithm,
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    extensions,
  });
  return { cert: cert.toString('pem'), key: await privatePem(keys.privateKey) };
}

export async function generatePki(): Promise<ControlPlanePki> {
  const caKeys = await keyPair();
  const caCert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: nextSerial(),
    name: 'CN=lightkeeper-local-ca',
    ...validity(),
    keys: caKeys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const ca = { cert: caCert, keys: caKeys };
  const saKeys = await keyPair();
  return {
    ca: { cert: caCert.toString('pem'), key: await privatePem(caKeys.privateKey) },
    apiserver: await issue(ca, 'CN=kube-apiserver', 'server'),
    admin: await issue(ca, 'CN=lightkeeper-admin, O=system:masters', 'client'),
    serviceAccount: {
      publicKey: await publicPem(saKeys.publicKey),
      privateKey: await privatePem(saKeys.privateKey),
    },
  };
}
