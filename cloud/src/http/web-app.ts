/**
 * The web dashboard (cloud/dashboard/, built by Vite into its dist/) served at `/`: hashed assets
 * under /assets/ cached for a year, every other page answered with index.html (the single-page
 * app routes it in the browser). API paths are never answered here, so an unknown `/v1/...` stays
 * the API's JSON 404. Every answer carries a strict Content-Security-Policy: scripts, styles and
 * requests from this origin only, no inline script, and no framing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router, type Response } from 'express';

/** Where `npm run build -w @printwire/dashboard` writes the app (the root `prepare` runs it). */
export const DASHBOARD_DIST = fileURLToPath(new URL('../../dashboard/dist', import.meta.url));

/** Paths that belong to the API: the app never answers them (../shared/CONTRACT.md). */
export const API_PATHS = [
  '/v1',
  '/auth',
  '/orgs',
  '/agent',
  '/health',
  '/openapi.json',
  '/gallery',
];

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const YEAR_SECONDS = 365 * 24 * 3600;

function isApiPath(path: string): boolean {
  return API_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
}

function secure(res: Response): void {
  res.set({
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  });
}

/**
 * The dashboard's router, mounted after the API's routes. `dist` defaults to the built app; when
 * it was never built, pages answer 503 saying how to build it (the API keeps working).
 */
export function webAppRoutes(dist: string = DASHBOARD_DIST): Router {
  const router = Router();
  const indexFile = join(dist, 'index.html');
  let index: string | undefined;
  const readIndex = () => (index ??= existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : '');

  router.use(
    '/assets',
    express.static(join(dist, 'assets'), {
      index: false,
      immutable: true,
      maxAge: YEAR_SECONDS * 1000,
      setHeaders: (res) => secure(res),
    }),
  );
  // A hashed file that is not in this build (an old tab asking for the previous build's chunk).
  router.use('/assets', (_req, res) => {
    secure(res);
    res.status(404).type('text/plain').send('no such file in this build of the dashboard\n');
  });

  router.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isApiPath(req.path)) {
      next();
      return;
    }
    secure(res);
    const html = readIndex();
    if (!html) {
      res
        .status(503)
        .type('text/plain')
        .send(
          'The dashboard is not built: run `npm run build -w @printwire/dashboard` (npm install does it).\n',
        );
      return;
    }
    // A file of the build other than index.html (favicon.svg); anything else is a page.
    if (/^\/[\w.-]+\.(svg|ico|png|txt|webmanifest)$/.test(req.path)) {
      const file = join(dist, req.path);
      if (existsSync(file)) {
        res.set('cache-control', 'public, max-age=3600').sendFile(file);
        return;
      }
    }
    res.set('cache-control', 'no-cache').type('html').send(html);
  });
  return router;
}
