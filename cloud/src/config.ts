/**
 * Configuration: every limit and setting of the cloud relay, with defaults taken from the spec
 * and ../shared/CONTRACT.md. `configFromEnv` reads the environment variables `serve` uses.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export interface CloudConfig {
  /** PORT, default 8080. */
  port: number;
  /** HOST, default 127.0.0.1. */
  host: string;
  /** PUBLIC_URL: the address clients use; default http://HOST:PORT. */
  publicUrl: string;
  /** DATA_DIR, default ./.printwire: the SQLite file, mail folder. */
  dataDir: string;
  /** DATABASE_URL: postgres://… for PostgreSQL; unset: SQLite in DATA_DIR. */
  databaseUrl: string | undefined;
  /** REDIS_URL: redis://… for a shared cache and bus; unset: in-process. */
  redisUrl: string | undefined;
  /** LOG_LEVEL, default info (silent under test). */
  logLevel: string;
  /** NODE_ENV=production: https-only URLs. */
  production: boolean;
  /**
   * The Chrome or Chromium the sandbox lays out HTML label jobs with for their preview
   * (SANDBOX_BROWSER; see `sandboxBrowserFromEnv`), or null: such jobs then have no preview.
   */
  sandboxBrowser: string | null;
  limits: Limits;
}

export interface Limits {
  /** Largest request body in bytes. Default 5 MB. */
  maxBodyBytes: number;
  /** Requests per second per API key (token bucket refill). Default 100 (spec "Limits"). */
  rateLimitPerSecond: number;
  /** Bucket size: requests a key may send at once. Default equals rateLimitPerSecond. */
  rateLimitBurst: number;
  /** Default page size of lists. Default 25. */
  defaultPageSize: number;
  /** Largest page size. Default 100. */
  maxPageSize: number;
  /** Metadata pairs per job. Default 50. */
  maxMetadataKeys: number;
  /** Characters of a metadata key. Default 40. */
  maxMetadataKeyLength: number;
  /** Characters of a metadata value. Default 500. */
  maxMetadataValueLength: number;
  /** Characters of an idempotency key. Default 255. */
  maxIdempotencyKeyLength: number;
  /**
   * How often the sweeper runs (retention, and expiry as the backstop of the expiry timer, which
   * fails a job at its expiresAt), ms. Default 60 s; SWEEP_INTERVAL_MS (1000-3600000).
   */
  sweepIntervalMs: number;
  /**
   * Longest time the sandbox's browser may take to lay out an HTML label job for its preview
   * (load and PDF), ms; the preview then answers RENDER_FAILED. Default 15 s, the agent's limit
   * for HTML jobs; SANDBOX_HTML_TIMEOUT_MS (1000-60000).
   */
  sandboxHtmlTimeoutMs: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxBodyBytes: 5 * 1024 * 1024,
  rateLimitPerSecond: 100,
  rateLimitBurst: 100,
  defaultPageSize: 25,
  maxPageSize: 100,
  maxMetadataKeys: 50,
  maxMetadataKeyLength: 40,
  maxMetadataValueLength: 500,
  maxIdempotencyKeyLength: 255,
  sweepIntervalMs: 60_000,
  sandboxHtmlTimeoutMs: 15_000,
};

/** Where the sandbox looks for a browser when SANDBOX_BROWSER is unset, in order. */
export const SANDBOX_BROWSER_CANDIDATES: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
];

export function defaultConfig(overrides: Partial<CloudConfig> = {}): CloudConfig {
  const port = overrides.port ?? 8080;
  const host = overrides.host ?? '127.0.0.1';
  return {
    port,
    host,
    publicUrl: overrides.publicUrl ?? `http://${host}:${port}`,
    dataDir: overrides.dataDir ?? resolve('.printwire'),
    databaseUrl: overrides.databaseUrl,
    redisUrl: overrides.redisUrl,
    logLevel: overrides.logLevel ?? 'info',
    production: overrides.production ?? false,
    // Tests and embedders get no browser unless they name one; `serve` looks (configFromEnv).
    sandboxBrowser: overrides.sandboxBrowser ?? null,
    limits: { ...DEFAULT_LIMITS, ...overrides.limits },
  };
}

/** A setting in the environment breaks its rule; the message names the variable and the rule. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * A whole number of milliseconds from `env[name]` within [min, max]; undefined when unset. A value
 * outside the rule is refused with an error naming the variable and the rule.
 */
export function millisecondsFromEnv(
  env: NodeJS.ProcessEnv,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!(Number.isInteger(value) && value >= min && value <= max)) {
    throw new ConfigError(
      `${name} must be a whole number of milliseconds from ${min} to ${max}, not ${text}`,
    );
  }
  return value;
}

/**
 * The sandbox's browser: SANDBOX_BROWSER when set (the path of a Chrome or Chromium executable,
 * refused when there is none; `none` for no browser), else the first of
 * SANDBOX_BROWSER_CANDIDATES that exists, else null.
 */
export function sandboxBrowserFromEnv(
  env: NodeJS.ProcessEnv,
  exists: (path: string) => boolean = existsSync,
): string | null {
  const chosen = env.SANDBOX_BROWSER;
  if (chosen === 'none') return null;
  if (chosen) {
    if (exists(chosen)) return chosen;
    throw new ConfigError(
      `SANDBOX_BROWSER must be the path of a Chrome or Chromium executable, or none; ${chosen} does not exist`,
    );
  }
  return SANDBOX_BROWSER_CANDIDATES.find((path) => exists(path)) ?? null;
}

export function configFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  exists: (path: string) => boolean = existsSync,
): CloudConfig {
  const port = env.PORT ? Number(env.PORT) : 8080;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be a port number, not ${env.PORT}`);
  }
  const host = env.HOST || '127.0.0.1';
  const sweep = millisecondsFromEnv(env, 'SWEEP_INTERVAL_MS', 1000, 3_600_000);
  const htmlTimeout = millisecondsFromEnv(env, 'SANDBOX_HTML_TIMEOUT_MS', 1000, 60_000);
  return defaultConfig({
    port,
    host,
    publicUrl: env.PUBLIC_URL || `http://${host}:${port}`,
    dataDir: resolve(env.DATA_DIR || '.printwire'),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    production: env.NODE_ENV === 'production',
    sandboxBrowser: sandboxBrowserFromEnv(env, exists),
    limits: {
      ...DEFAULT_LIMITS,
      ...(sweep !== undefined ? { sweepIntervalMs: sweep } : {}),
      ...(htmlTimeout !== undefined ? { sandboxHtmlTimeoutMs: htmlTimeout } : {}),
    },
  });
}
