/**
 * An organization's credentials: API keys (created, listed, revoked, and looked up for each
 * request, with when each was last used) and the agents' single-use activation codes.
 */
import type { Logger } from 'pino';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { Clock } from '../lib/clock.js';
import type { Store } from '../storage/store.js';
import type { ApiKey, Mode, Organization, Scope } from '../storage/types.js';
import { generateApiKey, hashSecret } from './api-keys.js';
import { generateActivationCode } from './bootstrap.js';

/** How often a key's lastUsedAt is written at most (per key and instance). */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Activation codes are valid 24 hours. */
export const ACTIVATION_CODE_TTL_MS = 24 * 3_600_000;

/**
 * Keeps apiKeys.lastUsedAt (shown in the dashboard) to within a minute without a write per
 * request: a key's use is written when its last recorded use is a minute old, after the request
 * is answered, batched with other writes.
 */
class LastUsedRecorder {
  private readonly written = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly logger: Logger | undefined,
  ) {}

  record(organizationId: string, keyId: string, lastUsedAt: number | null, now: number): void {
    const last = Math.max(this.written.get(keyId) ?? 0, lastUsedAt ?? 0);
    if (now - last < LAST_USED_RESOLUTION_MS) return;
    if (this.written.size >= 100_000) this.written.clear();
    this.written.set(keyId, now);
    this.store.organizations.touchApiKey(organizationId, keyId, now).catch((err: unknown) => {
      this.logger?.warn({ err, keyId }, 'recording when an API key was last used failed');
    });
  }
}

export class CredentialService {
  private readonly lastUsed: LastUsedRecorder;

  constructor(private readonly deps: { store: Store; clock: Clock; logger?: Logger | undefined }) {
    this.lastUsed = new LastUsedRecorder(deps.store, deps.logger);
  }

  /**
   * The organization and key of a key's text (its shape already checked); UNAUTHORIZED when the
   * key is unknown or revoked. Records the use (see LAST_USED_RESOLUTION_MS).
   */
  async authenticate(key: string): Promise<{ organization: Organization; apiKey: ApiKey }> {
    const found = await this.deps.store.organizations.findApiKeyByHash(hashSecret(key));
    if (!found) throw new PrintwireError('UNAUTHORIZED', 'unknown API key');
    if (found.apiKey.revokedAt !== null) {
      throw new PrintwireError('UNAUTHORIZED', 'this API key has been revoked');
    }
    const now = this.deps.clock.now();
    this.lastUsed.record(found.organization.id, found.apiKey.id, found.apiKey.lastUsedAt, now);
    return found;
  }

  /** A new key; its text is returned here only (the store keeps its hash). */
  async createApiKey(
    organizationId: string,
    input: { name: string; mode: Mode; scopes: Scope[] },
  ): Promise<{ apiKey: ApiKey; key: string }> {
    const generated = generateApiKey(input.mode);
    const apiKey = await this.deps.store.organizations.createApiKey(
      organizationId,
      { ...input, keyHash: generated.hash, prefix: generated.prefix },
      this.deps.clock.now(),
    );
    return { apiKey, key: generated.key };
  }

  listApiKeys(organizationId: string): Promise<ApiKey[]> {
    return this.deps.store.organizations.listApiKeys(organizationId);
  }

  /** Revokes at once; NOT_FOUND when no active key has this id. */
  async revokeApiKey(organizationId: string, id: string): Promise<void> {
    if (
      !(await this.deps.store.organizations.revokeApiKey(organizationId, id, this.deps.clock.now()))
    ) {
      throw new PrintwireError('NOT_FOUND', `no active API key ${id}`);
    }
  }

  /** A single-use activation code, valid ACTIVATION_CODE_TTL_MS. */
  async createActivationCode(
    organizationId: string,
    name: string | null,
  ): Promise<{ code: string; expiresAt: number }> {
    const code = generateActivationCode();
    const now = this.deps.clock.now();
    const created = await this.deps.store.organizations.createActivationCode(
      organizationId,
      { codeHash: hashSecret(code), name, expiresAt: now + ACTIVATION_CODE_TTL_MS },
      now,
    );
    return { code, expiresAt: created.expiresAt };
  }
}
