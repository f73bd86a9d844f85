/** GET /v1/me, POST /v1/receipt/preview, and the health endpoints. */
import { Router } from 'express';
import { PrintwireError } from '@printwire/shared/errors/index';
import { renderEscposPreview } from '@printwire/shared/escpos/index';
import { encodeReceiptWithReport, validateReceiptDocument } from '@printwire/shared/receipt/index';
import { getPrinterProfile } from '@printwire/shared/printers/index';
import type { CacheStore } from '../../cache/types.js';
import type { Clock } from '../../lib/clock.js';
import { PLAN_RULES } from '../../services/plans.js';
import { usagePeriod, type OrganizationService } from '../../services/organizations.js';
import { auth } from '../context.js';
import { invalid } from '../../resources/field-issues.js';
import { mount, parseWith, type Guards, type Operation } from '../operation.js';
import {
  errorBodySchema,
  healthSchema,
  meSchema,
  receiptPreviewRequestSchema,
  receiptPreviewSchema,
} from '../../resources/schemas.js';

export const accountOperations = {
  me: {
    method: 'get',
    path: '/v1/me',
    summary: 'The caller’s organization, key, plan and this month’s usage',
    tag: 'Account',
    auth: 'any',
    responses: { 200: { description: 'the account', schema: meSchema } },
  },
  receiptPreview: {
    method: 'post',
    path: '/v1/receipt/preview',
    summary: 'Render a receipt document to a PNG as a thermal printer prints it',
    description:
      'Answers JSON with a data URL, or the PNG itself when the request says Accept: image/png. Image URLs are not fetched (a crossed box is drawn); inline base64 images render.',
    tag: 'Receipts',
    auth: 'jobs:write',
    body: receiptPreviewRequestSchema,
    responses: {
      201: { description: 'the preview', schema: receiptPreviewSchema },
      400: { description: 'VALIDATION_FAILED: details name each field', schema: errorBodySchema },
    },
  },
  live: {
    method: 'get',
    path: '/health/live',
    summary: 'The process is running',
    tag: 'Health',
    auth: 'none',
    responses: { 200: { description: 'alive', schema: healthSchema } },
  },
  ready: {
    method: 'get',
    path: '/health/ready',
    summary: 'The database and the cache store are reachable',
    tag: 'Health',
    auth: 'none',
    responses: {
      200: { description: 'ready', schema: healthSchema },
      503: {
        description: 'UNAVAILABLE: details name what is unreachable',
        schema: errorBodySchema,
      },
    },
  },
} satisfies Record<string, Operation>;

export function accountRoutes(
  deps: {
    organizations: OrganizationService;
    /** The database, asked whether it answers (GET /health/ready). */
    database: { ping(): Promise<void> };
    cache: CacheStore;
    clock: Clock;
  },
  guards: Guards,
): Router {
  const router = Router();
  const ops = accountOperations;
  const { organizations, database: db, cache, clock } = deps;

  mount(router, guards, ops.me, async (_req, res) => {
    const { organization, apiKey } = auth(res);
    const now = clock.now();
    const rules = PLAN_RULES[organization.plan] ?? PLAN_RULES.free;
    const used = await organizations.liveJobsThisMonth(organization.id, now);
    res.json({
      organization: {
        id: organization.id,
        name: organization.name,
        plan: organization.plan,
        retentionDays: organization.retentionDays,
        createdAt: new Date(organization.createdAt).toISOString(),
      },
      key: {
        id: apiKey.id,
        name: apiKey.name,
        mode: apiKey.mode,
        prefix: apiKey.prefix,
        scopes: apiKey.scopes,
      },
      plan: { name: organization.plan, monthlyJobs: rules.monthlyJobs, footer: rules.footer },
      usage: {
        period: usagePeriod(now),
        liveJobs: used,
        remaining: rules.monthlyJobs === null ? null : Math.max(0, rules.monthlyJobs - used),
      },
    });
  });

  mount(router, guards, ops.receiptPreview, async (req, res) => {
    const body = parseWith(receiptPreviewRequestSchema, req.body ?? {});
    const checked = validateReceiptDocument(body.document);
    if (!checked.ok) {
      throw invalid(
        'VALIDATION_FAILED',
        checked.issues.map((i) => ({
          path: `document.${i.path}`,
          message: `document.${i.message}`,
        })),
      );
    }
    let profile;
    try {
      profile = getPrinterProfile(body.profile ?? 'generic-80mm');
    } catch {
      throw invalid('VALIDATION_FAILED', [
        { path: 'profile', message: `profile: no printer profile ${body.profile}` },
      ]);
    }
    const paper = body.paper ?? checked.document.width ?? profile.paper;
    const report = encodeReceiptWithReport(checked.document, profile, {
      paper,
      footer: body.footer ?? false,
    });
    const preview = await renderEscposPreview(report.bytes, { paper: report.paper });
    const warnings = [...report.warnings, ...preview.warnings];
    if (req.accepts(['application/json', 'image/png']) === 'image/png') {
      res.status(201).type('image/png').send(preview.png);
      return;
    }
    res.status(201).json({
      image: `data:image/png;base64,${preview.png.toString('base64')}`,
      width: preview.width,
      height: preview.height,
      warnings,
    });
  });

  mount(router, guards, ops.live, (_req, res) => {
    res.json({ status: 'ok' });
  });

  mount(router, guards, ops.ready, async (_req, res) => {
    const checks = await Promise.all([
      db.ping().then(
        () => 'ok' as const,
        () => 'failed' as const,
      ),
      cache.ping().then(
        () => 'ok' as const,
        () => 'failed' as const,
      ),
    ]);
    const [database, cacheStore] = checks;
    if (database === 'ok' && cacheStore === 'ok') {
      res.json({ status: 'ok', checks: { database, cache: cacheStore } });
      return;
    }
    const failed = [
      database === 'failed' ? 'database' : null,
      cacheStore === 'failed' ? 'cache store' : null,
    ].filter(Boolean);
    throw new PrintwireError(
      'UNAVAILABLE',
      `not ready: the ${failed.join(' and the ')} cannot be reached`,
      {
        details: { database, cache: cacheStore },
      },
    );
  });

  return router;
}
