import { generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';

/** The files of the local server's TLS, under `<data-dir>/tls`. */
export const TLS_DIR = 'tls';
export const CA_CERT_FILE = 'ca.crt';
const CA_KEY_FILE = 'ca.key';
const SERVER_CERT_FILE = 'localhost.crt';
const SERVER_KEY_FILE = 'localhost.key';

/** Lifetimes: the CA lives long (installers trust it once); the leaf stays under browsers' 398-day cap. */
export const TLS_DEFAULTS = {
  caDays: 3650,
  serverDays: 397,
  /** A leaf certificate that expires within this many days is made again at start. */
  renewBeforeDays: 30,
} as const;

export interface LocalTls {
  /** PEM of the localhost certificate followed by the CA's. */
  cert: string;
  key: string;
  /** Path of the CA's public certificate (what installers and tests trust). */
  caPath: string;
  caCert: string;
}

/** Where the CA's public certificate is (or will be) for this data dir. */
export function caCertPath(dataDir: string): string {
  return join(dataDir, TLS_DIR, CA_CERT_FILE);
}

function rsaKeys(): {
  publicKey: forge.pki.rsa.PublicKey;
  privateKey: forge.pki.rsa.PrivateKey;
  pem: string;
} {
  // node:crypto makes the key (native, fast); forge only builds and signs the certificates.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(pem);
  return {
    privateKey: forgeKey,
    publicKey: forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e),
    pem,
  };
}

function serial(): string {
  // Positive 16-byte serial: the top bit cleared.
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
}

function writeSecret(path: string, pem: string): void {
  writeFileSync(path, pem, { mode: 0o600 });
  chmodSync(path, 0o600);
}

function makeCa(dir: string, now: Date): void {
  const keys = rsaKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + TLS_DEFAULTS.caDays * 86_400_000);
  const name = [
    { name: 'commonName', value: `Printwire Agent Local CA ${serial().slice(0, 8)}` },
    { name: 'organizationName', value: 'Printwire (this computer only)' },
  ];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  writeSecret(join(dir, CA_KEY_FILE), keys.pem);
  writeFileSync(join(dir, CA_CERT_FILE), forge.pki.certificateToPem(cert));
}

function makeServerCert(dir: string, now: Date): void {
  const caCert = forge.pki.certificateFromPem(readFileSync(join(dir, CA_CERT_FILE), 'utf8'));
  const caKey = forge.pki.privateKeyFromPem(readFileSync(join(dir, CA_KEY_FILE), 'utf8'));
  const keys = rsaKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + TLS_DEFAULTS.serverDays * 86_400_000);
  cert.setSubject([{ name: 'commonName', value: 'localhost' }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
        { type: 7, ip: '::1' },
      ],
    },
    { name: 'subjectKeyIdentifier' },
    {
      name: 'authorityKeyIdentifier',
      keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes(),
    },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  writeSecret(join(dir, SERVER_KEY_FILE), keys.pem);
  writeFileSync(join(dir, SERVER_CERT_FILE), forge.pki.certificateToPem(cert));
}

function needsRenewal(certPath: string, caPem: string, now: Date): boolean {
  if (!existsSync(certPath)) return true;
  const cert = new X509Certificate(readFileSync(certPath));
  const renewAt = Date.parse(cert.validTo) - TLS_DEFAULTS.renewBeforeDays * 86_400_000;
  // A leaf from another CA (the CA was replaced by hand) is made again too.
  return now.getTime() >= renewAt || !cert.checkIssued(new X509Certificate(caPem));
}

/**
 * The local server's TLS material: made at first start (a per-install CA whose private key never
 * leaves `<data-dir>/tls`, and a localhost certificate it signs for `localhost`, `127.0.0.1` and
 * `::1`), then reused; the leaf is made again when it nears its end.
 */
export function ensureLocalTls(dataDir: string, now: Date = new Date()): LocalTls {
  const dir = join(dataDir, TLS_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!existsSync(join(dir, CA_CERT_FILE)) || !existsSync(join(dir, CA_KEY_FILE))) {
    makeCa(dir, now);
  }
  const caCert = readFileSync(join(dir, CA_CERT_FILE), 'utf8');
  if (needsRenewal(join(dir, SERVER_CERT_FILE), caCert, now)) makeServerCert(dir, now);
  return {
    cert: readFileSync(join(dir, SERVER_CERT_FILE), 'utf8') + caCert,
    key: readFileSync(join(dir, SERVER_KEY_FILE), 'utf8'),
    caPath: join(dir, CA_CERT_FILE),
    caCert,
  };
}
