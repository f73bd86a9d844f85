/**
 * `admin bootstrap`: a verified owner, an organization (with its sandbox), a live and a test key
 * with every scope, and one activation code. Also how tests set up an organization.
 */
import { randomBytes, scrypt } from 'node:crypto';
import { promisify } from 'node:util';
import { SANDBOX_PRINTERS } from '../sandbox/printers.js';
import type { Store } from '../storage/store.js';
import { SCOPES, type Plan, type Scope } from '../storage/types.js';
import { generateApiKey, hashSecret } from './api-keys.js';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
) => Promise<Buffer>;

/** `scrypt$<salt>$<hash>` (base64url); the accounts issue may move to argon2. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export interface BootstrapResult {
  userId: string;
  orgId: string;
  liveKey: string;
  testKey: string;
  activationCode: string;
}

/** Activation codes: 12 characters without look-alikes, shown as XXXX-XXXX-XXXX. */
export function generateActivationCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(12);
  let code = '';
  for (let i = 0; i < 12; i++) {
    if (i > 0 && i % 4 === 0) code += '-';
    code += alphabet[bytes[i]! % alphabet.length];
  }
  return code;
}

export async function createApiKey(
  store: Store,
  organizationId: string,
  mode: 'live' | 'test',
  now: number,
  scopes: readonly Scope[] = SCOPES,
  name = `${mode} key`,
): Promise<{ id: string; key: string }> {
  const generated = generateApiKey(mode);
  const apiKey = await store.organizations.createApiKey(
    organizationId,
    { name, mode, scopes, keyHash: generated.hash, prefix: generated.prefix },
    now,
  );
  return { id: apiKey.id, key: generated.key };
}

export async function bootstrap(
  store: Store,
  input: { email: string; password: string; org: string; plan?: Plan; name?: string },
  now: number,
): Promise<BootstrapResult> {
  const user = await store.organizations.createUser(
    {
      email: input.email,
      name: input.name ?? input.email.split('@')[0]!,
      passwordHash: await hashPassword(input.password),
      verified: true,
    },
    now,
  );
  const org = await store.organizations.create(
    { name: input.org, plan: input.plan ?? 'free' },
    now,
    SANDBOX_PRINTERS,
  );
  await store.organizations.addMember(org.id, user.id, 'owner', now);
  const live = await createApiKey(store, org.id, 'live', now);
  const test = await createApiKey(store, org.id, 'test', now);
  const activationCode = generateActivationCode();
  await store.organizations.createActivationCode(
    org.id,
    { codeHash: hashSecret(activationCode), name: 'bootstrap', expiresAt: now + 24 * 3_600_000 },
    now,
  );
  return { userId: user.id, orgId: org.id, liveKey: live.key, testKey: test.key, activationCode };
}
