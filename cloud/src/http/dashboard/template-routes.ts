/**
 * Templates in the dashboard (../shared/CONTRACT.md "Dashboard resources"): create, update
 * (version + 1), delete, list, preview with data, and the gallery. A template must compile to be
 * stored; 200 templates and 2 MB per organization. Receipt previews also carry the PNG the
 * virtual printer draws from the very ESC/POS bytes an agent would send.
 */
import { Router } from 'express';
import { z } from 'zod';
import { PrintwireError } from '@printwire/shared/errors/index';
import { renderEscposPreview } from '@printwire/shared/escpos/index';
import { gallery, getGalleryTemplate } from '@printwire/shared/gallery/index';
import { encodeReceiptWithReport } from '@printwire/shared/receipt/index';
import {
  compileTemplate,
  renderReceiptDocument,
  renderTemplate,
} from '@printwire/shared/template/index';
import { isLabelSize } from '@printwire/shared/label-graphics/label-size';
import type { AccountService } from '../../accounts/service.js';
import { renderLabelPreview } from '../../sandbox/label-preview.js';
import { parseWith, type Operation } from '../operation.js';
import { errorBodySchema, templateSchema } from '../../resources/schemas.js';
import type { MembershipService } from '../../accounts/members.js';
import type { TemplateService } from '../../services/templates.js';
import type { Template } from '../../storage/types.js';
import { route } from './auth-routes.js';
import type { Permission } from '../../accounts/permissions.js';
import {
  dataSchema,
  idParams,
  messageSchema,
  orgIdParams,
  sessionOperation,
  SESSION_NOTE,
} from './schemas.js';
import { requireOrgPermission, requireSession } from './session.js';

const TAG = 'Dashboard: templates';
const invalidBody = {
  description: 'VALIDATION_FAILED: details name each field',
  schema: errorBodySchema,
};
const common = {
  403: { description: 'FORBIDDEN: the role may not do this', schema: errorBodySchema },
  404: { description: 'NOT_FOUND', schema: errorBodySchema },
};

const TYPES = ['zpl', 'epl', 'receipt', 'html'] as const;
const name = z.string().min(1).max(100);
const paper = z.string().min(1).max(40).nullable();
export const createTemplateBody = z.object({
  name,
  type: z.enum(TYPES),
  content: z.string().min(1),
  paper: paper.optional(),
});
export const patchTemplateBody = z.object({
  name: name.optional(),
  content: z.string().min(1).optional(),
  paper: paper.optional(),
});
export const previewBody = z.object({
  data: z.record(z.string(), z.unknown()).default({}),
  profile: z.string().optional().describe('printer profile of a receipt preview'),
  content: z
    .string()
    .min(1)
    .optional()
    .describe(
      'a draft to render instead of the stored content (the editor’s live preview); a draft that does not compile answers VALIDATION_FAILED naming `content` with its line and column',
    ),
});
/** Most labels a template preview draws. */
const LABELS_IN_PREVIEW = 24;

/** The labels of a ZPL or EPL template's output, as data: URLs, with their count. */
function labelPictures(output: string, language: 'zpl' | 'epl', paper: string | null) {
  const paperOptions = paper && isLabelSize(paper) ? { labelSize: paper } : {};
  let first;
  try {
    first = renderLabelPreview(output, language, paperOptions, 0);
  } catch (error) {
    // No label yet (a draft without ^XA…^XZ, EPL without P): nothing to draw.
    if (error instanceof PrintwireError && error.code === 'VALIDATION_FAILED') {
      return { labels: [], labelCount: 0, skipped: [], warnings: [] };
    }
    throw fieldError('content', error);
  }
  const url = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;
  const labels = [url(first.png)];
  // Each label's warnings (a field's data differs from label to label), each sentence once.
  const warnings = new Set(first.warnings);
  for (let n = 1; n < Math.min(first.labelCount, LABELS_IN_PREVIEW); n++) {
    const drawn = renderLabelPreview(output, language, paperOptions, n);
    labels.push(url(drawn.png));
    for (const warning of drawn.warnings) warnings.add(warning);
  }
  return { labels, labelCount: first.labelCount, skipped: first.skipped, warnings: [...warnings] };
}

export const fromGalleryBody = z.object({ galleryId: z.string().min(1) });

export const dashboardTemplateSchema = templateSchema
  .extend({ version: z.number().int() })
  .meta({ id: 'DashboardTemplate' });
const previewSchema = z.object({
  type: z.enum(TYPES),
  output: z.string().describe('what the printer receives (ZPL, EPL, HTML, or receipt JSON)'),
  image: z.string().optional().describe('receipts: data:image/png;base64 of the printed paper'),
  labels: z
    .array(z.string())
    .optional()
    .describe(
      `ZPL and EPL: data:image/png;base64 of the first ${LABELS_IN_PREVIEW} labels, at 203 dpi on the label's own ^PW/^LL (q/Q), else the template's paper, else 4 × 6 in`,
    ),
  labelCount: z.number().int().optional().describe('ZPL and EPL: how many labels it prints'),
  skipped: z
    .array(z.string())
    .optional()
    .describe('ZPL and EPL: the commands the pictures could not draw'),
  warnings: z
    .array(z.string())
    .optional()
    .describe(
      'ZPL and EPL: where the pictures lose data as the printer would (a QR code dropping characters, a graphic cut short, a font drawn as font 0), in English, each once, from the labels drawn',
    ),
});
const galleryItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: z.string(),
  type: z.enum(TYPES),
  paper: z.string(),
  locale: z.string(),
  description: z.string(),
  content: z.string(),
  sampleData: z.record(z.string(), z.unknown()),
});

const orgOp = sessionOperation(TAG, common);

export const templateOperations = {
  listTemplates: orgOp({
    method: 'get',
    path: '/orgs/{orgId}/templates',
    summary: 'The organization’s templates',
    params: orgIdParams,
    responses: {
      200: { description: 'the templates', schema: dataSchema(dashboardTemplateSchema) },
    },
  }),
  createTemplate: orgOp({
    method: 'post',
    path: '/orgs/{orgId}/templates',
    summary: 'Create a template (it must compile; 200 and 2 MB per organization)',
    params: orgIdParams,
    body: createTemplateBody,
    responses: {
      201: { description: 'the template', schema: dashboardTemplateSchema },
      400: invalidBody,
    },
  }),
  patchTemplate: orgOp({
    method: 'patch',
    path: '/orgs/{orgId}/templates/{id}',
    summary: 'Change a template; its version goes up by one',
    params: idParams,
    body: patchTemplateBody,
    responses: {
      200: { description: 'the template', schema: dashboardTemplateSchema },
      400: invalidBody,
    },
  }),
  deleteTemplate: orgOp({
    method: 'delete',
    path: '/orgs/{orgId}/templates/{id}',
    summary: 'Delete a template',
    params: idParams,
    responses: { 200: { description: 'deleted', schema: messageSchema } },
  }),
  previewTemplate: orgOp({
    method: 'post',
    path: '/orgs/{orgId}/templates/{id}/preview',
    summary: 'Render a template with data: the printer’s commands, and for receipts an image',
    description:
      'With `content`, renders that draft instead of the stored template (nothing is saved). Errors name `content` (the template does not compile) or `data` (rendering with this data failed), with the line and column in the message.',
    params: idParams,
    body: previewBody,
    responses: { 200: { description: 'the preview', schema: previewSchema }, 400: invalidBody },
  }),
  fromGallery: orgOp({
    method: 'post',
    path: '/orgs/{orgId}/templates/from-gallery',
    summary: 'Copy a gallery template into the organization',
    params: orgIdParams,
    body: fromGalleryBody,
    responses: {
      201: { description: 'the template', schema: dashboardTemplateSchema },
      400: invalidBody,
    },
  }),
  gallery: {
    method: 'get',
    path: '/gallery/templates',
    summary: 'The template gallery: 5 receipts, 5 labels, 5 reports, 5 estimates',
    description: SESSION_NOTE,
    tag: TAG,
    auth: 'any',
    responses: { 200: { description: 'the gallery', schema: dataSchema(galleryItemSchema) } },
  },
} satisfies Record<string, Operation>;

const PERMISSION: Record<Exclude<keyof typeof templateOperations, 'gallery'>, Permission> = {
  listTemplates: 'templates:read',
  createTemplate: 'templates:write',
  patchTemplate: 'templates:write',
  deleteTemplate: 'templates:write',
  previewTemplate: 'templates:read',
  fromGallery: 'templates:write',
};

const iso = (ms: number) => new Date(ms).toISOString();
export const presentDashboardTemplate = (t: Template) => ({
  id: t.id,
  name: t.name,
  type: t.type,
  content: t.content,
  paper: t.paper,
  version: t.version,
  createdAt: iso(t.createdAt),
  updatedAt: iso(t.updatedAt),
});

function fieldError(path: string, error: unknown): PrintwireError {
  const message = `${path}: ${error instanceof Error ? error.message : String(error)}`;
  return new PrintwireError('VALIDATION_FAILED', message, { details: [{ path, message }] });
}

/** Throws VALIDATION_FAILED naming `content` when the template does not compile. */
function checkCompiles(content: string, type: Template['type']): void {
  try {
    compileTemplate(content, type);
  } catch (error) {
    throw fieldError('content', error);
  }
}

/** The limit errors of TemplatesRepository.create name the field they concern. */
function withLimitPath(error: unknown): unknown {
  if (error instanceof PrintwireError && error.code === 'VALIDATION_FAILED' && !error.details) {
    const path = /templates hold/.test(error.message) ? 'content' : '(root)';
    return new PrintwireError('VALIDATION_FAILED', error.message, {
      details: [{ path, message: `${path}: ${error.message}` }],
    });
  }
  return error;
}

export function templateRoutes(deps: {
  accounts: AccountService;
  members: MembershipService;
  templates: TemplateService;
}): Router {
  const { accounts, members, templates } = deps;
  const router = Router();
  const ops = templateOperations;
  const withSession = requireSession(accounts);
  const guard = (n: keyof typeof PERMISSION) => [
    withSession,
    requireOrgPermission(members, PERMISSION[n]),
  ];
  const load = (orgId: string, id: string) => templates.get(orgId, id);
  const create = async (
    orgId: string,
    input: {
      name: string;
      type: Template['type'];
      content: string;
      paper?: string | null | undefined;
    },
  ) => {
    checkCompiles(input.content, input.type);
    let created: Template;
    try {
      created = await templates.create(orgId, {
        name: input.name,
        type: input.type,
        content: input.content,
        paper: input.paper ?? null,
      });
    } catch (error) {
      throw withLimitPath(error);
    }
    return created;
  };

  route(router, ops.gallery, withSession, (_req, res) => {
    res.json({
      data: gallery.map((g) => ({
        id: g.id,
        name: g.name,
        category: g.category,
        type: g.type,
        paper: g.paper,
        locale: g.locale,
        description: g.description,
        content: g.content,
        sampleData: g.sampleData,
      })),
      nextCursor: null,
    });
  });
  route(router, ops.listTemplates, ...guard('listTemplates'), async (req, res) => {
    const { orgId } = parseWith(orgIdParams, req.params);
    const list = await templates.list(orgId);
    res.json({ data: list.map(presentDashboardTemplate), nextCursor: null });
  });
  route(router, ops.createTemplate, ...guard('createTemplate'), async (req, res) => {
    const { orgId } = parseWith(orgIdParams, req.params);
    const body = parseWith(createTemplateBody, req.body);
    res.status(201).json(presentDashboardTemplate(await create(orgId, body)));
  });
  route(router, ops.fromGallery, ...guard('fromGallery'), async (req, res) => {
    const { orgId } = parseWith(orgIdParams, req.params);
    const { galleryId } = parseWith(fromGalleryBody, req.body);
    const g = getGalleryTemplate(galleryId);
    if (!g) throw fieldError('galleryId', new Error(`no gallery template ${galleryId}`));
    const created = await create(orgId, {
      name: g.name,
      type: g.type,
      content: g.content,
      paper: g.paper,
    });
    res.status(201).json(presentDashboardTemplate(created));
  });
  route(router, ops.patchTemplate, ...guard('patchTemplate'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    const body = parseWith(patchTemplateBody, req.body);
    const current = await load(orgId, id);
    if (body.content !== undefined) checkCompiles(body.content, current.type);
    const updated = await templates.update(orgId, id, body);
    res.json(presentDashboardTemplate(updated));
  });
  route(router, ops.deleteTemplate, ...guard('deleteTemplate'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    await templates.remove(orgId, id);
    res.json({ message: 'template deleted' });
  });
  route(router, ops.previewTemplate, ...guard('previewTemplate'), async (req, res) => {
    const { orgId, id } = parseWith(idParams, req.params);
    const body = parseWith(previewBody, req.body ?? {});
    const stored = await load(orgId, id);
    if (body.content !== undefined) checkCompiles(body.content, stored.type);
    const t = body.content === undefined ? stored : { ...stored, content: body.content };
    if (t.type !== 'receipt') {
      let output: string;
      try {
        output = renderTemplate(t.content, body.data, t.type);
      } catch (error) {
        throw fieldError('data', error);
      }
      if (t.type === 'zpl' || t.type === 'epl') {
        res.json({ type: t.type, output, ...labelPictures(output, t.type, t.paper) });
        return;
      }
      res.json({ type: t.type, output });
      return;
    }
    let report;
    let document;
    try {
      document = renderReceiptDocument(t.content, body.data);
      const profile = body.profile ?? (t.paper === '58mm' ? 'generic-58mm' : 'generic-80mm');
      report = encodeReceiptWithReport(
        document,
        profile,
        t.paper === '58mm' || t.paper === '80mm' ? { paper: t.paper } : {},
      );
    } catch (error) {
      throw fieldError('data', error);
    }
    const preview = await renderEscposPreview(report.bytes, { paper: report.paper });
    res.json({
      type: t.type,
      output: JSON.stringify(document),
      image: `data:image/png;base64,${preview.png.toString('base64')}`,
    });
  });
  return router;
}
