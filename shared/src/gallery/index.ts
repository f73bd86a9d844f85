/**
 * The template gallery (spec rule 5): 5 receipts, 5 labels, 5 reports and 5 estimates, each with
 * sample data, in English, French and Haitian Creole. The cloud serves them at
 * `GET /gallery/templates` and copies one into an organization on `from-gallery`.
 *
 * Each template is a data file beside this module (`templates/<id>.<ext>.mustache` with
 * `templates/<id>.data.json`), listed in `gallery.json`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { TEMPLATE_TYPES, type TemplateType } from '../template/index.js';

export const GALLERY_CATEGORIES = ['receipt', 'label', 'report', 'estimate'] as const;
export type GalleryCategory = (typeof GALLERY_CATEGORIES)[number];

export const GALLERY_LOCALES = ['en', 'fr', 'ht'] as const;
export type GalleryLocale = (typeof GALLERY_LOCALES)[number];

export interface GalleryTemplate {
  /** Stable id, used as `galleryId` in `POST /orgs/{orgId}/templates/from-gallery`. */
  id: string;
  name: string;
  category: GalleryCategory;
  type: TemplateType;
  /** The template's paper: `80mm`/`58mm` for receipts, label size (`4x6in`), `A4`/`Letter`. */
  paper: string;
  /** Language of the template's own text and of its sample data. */
  locale: GalleryLocale;
  description: string;
  /** The template text. */
  content: string;
  /** Data the template renders with, shown in the gallery's preview. */
  sampleData: Record<string, unknown>;
}

const manifestSchema = z.array(
  z.strictObject({
    id: z.string().regex(/^[a-z0-9-]+$/),
    name: z.string().min(1),
    category: z.enum(GALLERY_CATEGORIES),
    type: z.enum(TEMPLATE_TYPES),
    paper: z.string().min(1),
    locale: z.enum(GALLERY_LOCALES),
    description: z.string().min(1),
  }),
);

const EXTENSION: Record<TemplateType, string> = {
  receipt: 'json',
  zpl: 'zpl',
  epl: 'epl',
  html: 'html',
};

function read(file: string): string {
  return readFileSync(new URL(file, import.meta.url), 'utf8');
}

function load(): readonly GalleryTemplate[] {
  const manifest = manifestSchema.parse(JSON.parse(read('./gallery.json')));
  return Object.freeze(
    manifest.map((entry) =>
      Object.freeze({
        ...entry,
        content: read(`./templates/${entry.id}.${EXTENSION[entry.type]}.mustache`),
        sampleData: JSON.parse(read(`./templates/${entry.id}.data.json`)) as Record<
          string,
          unknown
        >,
      }),
    ),
  );
}

/** Every gallery template, in gallery order (receipts, labels, reports, estimates). */
export const gallery: readonly GalleryTemplate[] = load();

/** The gallery template with this id, or undefined. */
export function getGalleryTemplate(id: string): GalleryTemplate | undefined {
  return gallery.find((t) => t.id === id);
}
