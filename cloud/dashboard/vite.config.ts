import { defineConfig } from 'vite';

// No React plugin: the JSX transform is built in, and fast refresh is not worth a dependency.
export default defineConfig({
  root: import.meta.dirname,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    // The CSP allows no inline script: nothing may be inlined into index.html.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rollupOptions: {
      // TanStack Query marks its modules "use client" for server components; nothing to keep here.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: {
    proxy: {
      '/auth': 'http://127.0.0.1:8080',
      '/orgs': 'http://127.0.0.1:8080',
      '/invitations/accept': {
        target: 'http://127.0.0.1:8080',
        bypass: (req) => (req.method === 'GET' ? req.url : undefined),
      },
    },
  },
});
