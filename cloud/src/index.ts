// The public surface of @printwire/cloud: the app factory and what it is built from, for
// embedding the relay, end-to-end tests and the later gateway, dashboard and webhook issues.
export {
  createApp,
  OPERATIONS,
  API_VERSION,
  type AppDeps,
  type CloudApp,
  type Mailer,
} from './app.js';
export { startServer, openStore, openCacheAndBus, type RunningServer } from './server.js';
export {
  configFromEnv,
  defaultConfig,
  DEFAULT_LIMITS,
  type CloudConfig,
  type Limits,
} from './config.js';
export { Store, type StoreOptions } from './storage/store.js';
export type * from './storage/types.js';
export { JOB_STATES, PLANS, SCOPES } from './storage/types.js';
export { MemoryBus } from './bus/memory.js';
export { MemoryCache } from './cache/memory.js';
export { RedisBus } from './bus/redis.js';
export { RedisCache } from './cache/redis.js';
export type { BusEvent, EventBus, JobStateChanged } from './bus/events.js';
export type { CacheStore } from './cache/types.js';
export { systemClock, ManualClock, type Clock } from './lib/clock.js';
export { JobService, type JobContext } from './services/jobs.js';
export { Sweeper } from './services/sweeper.js';
export { bootstrap, createApiKey, type BootstrapResult } from './services/bootstrap.js';
export { generateApiKey, hashSecret } from './services/api-keys.js';
export { PLAN_RULES } from './services/plans.js';
export type { NewJob } from './storage/job-types.js';
export type { JobResource } from './resources/present.js';
export { buildOpenApi } from './http/openapi.js';
export { WebhookService } from './webhooks/service.js';
