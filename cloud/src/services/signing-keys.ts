/**
 * An organization's signing keys (Ed25519): the pair is made here and the private key answered
 * once; keys and revocations reach every agent of the organization (docs/local-api.md).
 */
import { generateKeyPairSync } from 'node:crypto';
import { PrintwireError } from '@printwire/shared/errors/index';
import { PROTOCOL_LIMITS } from '@printwire/shared/protocol/index';
import type { Clock } from '../lib/clock.js';
import type { Store } from '../storage/store.js';
import type { SigningKey } from '../storage/types.js';
import type { ConfigNotifier } from './agent-config.js';

/** Active keys an organization holds at most (CONFLICT above). */
export const MAX_ACTIVE_SIGNING_KEYS = PROTOCOL_LIMITS.maxSigningKeys;

export function generateSigningKeyPair(): { publicKey: string; privateKey: string } {
  return generateKeyPairSync('ed25519', {
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

export class SigningKeyService {
  constructor(private readonly deps: { store: Store; clock: Clock; agents: ConfigNotifier }) {}

  /** A new key pair: the public key is stored and sent to the agents, the private one answered. */
  async create(
    organizationId: string,
    name: string,
  ): Promise<{ signingKey: SigningKey; privateKey: string }> {
    const pair = generateSigningKeyPair();
    const signingKey = await this.deps.store.signingKeys.create(
      organizationId,
      { name, publicKey: pair.publicKey },
      this.deps.clock.now(),
      MAX_ACTIVE_SIGNING_KEYS,
    );
    await this.deps.agents.changed(organizationId);
    return { signingKey, privateKey: pair.privateKey };
  }

  list(organizationId: string): Promise<SigningKey[]> {
    return this.deps.store.signingKeys.list(organizationId);
  }

  /** Revokes a key; NOT_FOUND when no active key has this id. */
  async revoke(organizationId: string, id: string): Promise<void> {
    if (!(await this.deps.store.signingKeys.revoke(organizationId, id, this.deps.clock.now()))) {
      throw new PrintwireError('NOT_FOUND', `no active signing key ${id}`);
    }
    await this.deps.agents.changed(organizationId);
  }
}
