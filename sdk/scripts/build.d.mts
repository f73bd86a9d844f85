/** Builds dist/printwire.js; with `write: false` returns its bytes instead. */
export function buildBrowserBundle(options?: { write?: boolean }): Promise<Uint8Array | null>;
