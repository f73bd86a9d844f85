// @printwire/agent/testing: what tests and benches talk to an agent's local server with (a
// client that signs as a page's backend would). Never imported by a source file.
export * from './local-client.js';
