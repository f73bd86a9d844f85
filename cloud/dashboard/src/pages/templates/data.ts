/** Templates, the gallery and previews: query keys, queries, and the sample data kept per template. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, data, type Schemas } from '../../api/client';

export type Template = Schemas['DashboardTemplate'];
export type TemplateType = Template['type'];

export const templateKeys = {
  templates: (orgId: string) => ['orgs', orgId, 'templates'] as const,
  preview: (orgId: string, id: string, content: string, sample: string) =>
    ['orgs', orgId, 'templates', id, 'preview', content, sample] as const,
  gallery: ['gallery', 'templates'] as const,
};

export const useTemplates = (orgId: string) =>
  useQuery({
    queryKey: templateKeys.templates(orgId),
    queryFn: () => data(api.GET('/orgs/{orgId}/templates', { params: { path: { orgId } } })),
  });

export const useGallery = () =>
  useQuery({
    queryKey: templateKeys.gallery,
    queryFn: () => data(api.GET('/gallery/templates')),
    staleTime: Infinity,
  });

/**
 * The preview of a draft (`content`) with sample data, as the API renders it; the last preview
 * stays shown while the next one is on its way. `sample` is JSON text already checked to parse.
 */
export const usePreview = (
  orgId: string,
  id: string,
  content: string,
  sample: string | undefined,
) =>
  useQuery({
    queryKey: templateKeys.preview(orgId, id, content, sample ?? ''),
    queryFn: () =>
      data(
        api.POST('/orgs/{orgId}/templates/{id}/preview', {
          params: { path: { orgId, id } },
          body: { content, data: JSON.parse(sample ?? '{}') as Record<string, unknown> },
        }),
      ),
    enabled: sample !== undefined && content !== '',
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    retry: false,
  });

/**
 * Sample data is the editor's, not the server's: kept in this browser per template (the gallery's
 * own sample data when a template came from it).
 */
const sampleKey = (id: string) => `printwire.sampleData.${id}`;
export const savedSample = (id: string): string | null => localStorage.getItem(sampleKey(id));
export const saveSample = (id: string, json: string): void => {
  try {
    localStorage.setItem(sampleKey(id), json);
  } catch {
    // storage full or refused: the sample lives until the page is left
  }
};
