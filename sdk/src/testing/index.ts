// @printwire/sdk/testing: the browser bundle built in memory, for the pages tests serve (the
// end-to-end tests load the SDK as a shop's page would). Not part of the SDK's builds.
export { buildBrowserBundle } from '../../scripts/build.mjs';
