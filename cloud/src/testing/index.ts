// @printwire/cloud/testing: what tests and benches start a cloud with (a relay on a port, a
// dashboard with its mailbox, a gateway with simulated agents, test stores on SQLite and
// PostgreSQL, a webhook receiver). Never imported by a source file (the lint checks it).
export * from './harness.js';
export * from './dashboard.js';
export * from './event-stream.js';
export * from './gateway.js';
export * from './redis.js';
export * from './stores.js';
export * from './webhook-receiver.js';
export { linksInEml } from '../mail/mailer.js';
export * from './simulated-cloudprnt.js';
export * from './simulated-sdp.js';
