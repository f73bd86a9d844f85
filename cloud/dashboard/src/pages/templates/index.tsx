/**
 * Templates: the organization's templates, a new one from a starter, and the gallery of 20 with
 * "Use this template" (its sample data comes along into the editor).
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api, data } from '../../api/client';
import { queryClient, useCan } from '../../data';
import { formatNumber } from '../../i18n';
import {
  Button,
  Field,
  FormError,
  LastData,
  LoadError,
  Loading,
  PageTitle,
  SelectField,
  fieldError,
  ResourceTable,
} from '../../ui';
import { useOrgId } from '../organization';
import { ShownTime } from '../shown-time';
import { saveSample, templateKeys, useGallery, useTemplates, type TemplateType } from './data';
import { useTypeWords } from './words';
import './templates.css';

export { TemplateEditor } from './editor';

const TYPES: TemplateType[] = ['receipt', 'zpl', 'epl', 'html'];

/** What a new template starts with, and sample data that fills it. */
const STARTERS: Record<TemplateType, { content: string; sample: unknown }> = {
  receipt: {
    content:
      '{\n  "blocks": [\n    { "type": "text", "value": "{{shop}}", "align": "center", "bold": true },\n    { "type": "line" },\n    { "type": "text", "value": "{{message}}" }\n  ]\n}\n',
    sample: { shop: 'Boulangerie Marie', message: 'Thank you!' },
  },
  zpl: {
    content: '^XA\n^FO40,40^A0N,40,40^FD{{name}}^FS\n^FO40,100^BCN,80,Y,N,N^FD{{code}}^FS\n^XZ\n',
    sample: { name: 'Pain au chocolat', code: '12345' },
  },
  epl: {
    content: 'N\nA40,40,0,3,1,1,N,"{{name}}"\nB40,90,0,1,2,4,60,B,"{{code}}"\nP1\n',
    sample: { name: 'Pain au chocolat', code: '12345' },
  },
  html: {
    content: '<h1>{{title}}</h1>\n<p>{{body}}</p>\n',
    sample: { title: 'Daily report', body: 'Everything printed.' },
  },
};

export function Templates() {
  const { t } = useTranslation();
  const orgId = useOrgId();
  const templates = useTemplates(orgId);
  const canWrite = useCan(orgId, 'templates:write');
  const types = useTypeWords();
  if (templates.isError && !templates.data)
    return <LoadError error={templates.error} onRetry={() => void templates.refetch()} />;
  if (!templates.data) return <Loading />;
  const list = templates.data.data;
  return (
    <LastData query={templates}>
      <section>
        <PageTitle lead={t('templates.lead')}>{t('templates.title')}</PageTitle>
        {canWrite && <NewTemplate orgId={orgId} />}
        <h2>{t('templates.yours')}</h2>
        {list.length === 0 ? (
          <p className="empty">{t('templates.empty')}</p>
        ) : (
          <ResourceTable
            rows={list}
            rowKey={(tpl) => tpl.id}
            columns={[
              {
                header: t('templates.name'),
                cell: (tpl) => <Link to={`/o/${orgId}/templates/${tpl.id}`}>{tpl.name}</Link>,
              },
              {
                header: t('templates.typeLabel'),
                cell: (tpl) => (
                  <>
                    {types[tpl.type]}
                    {tpl.paper && ` · ${tpl.paper}`}
                  </>
                ),
              },
              { header: t('templates.version'), cell: (tpl) => formatNumber(tpl.version) },
              { header: t('templates.updated'), cell: (tpl) => <ShownTime iso={tpl.updatedAt} /> },
            ]}
          />
        )}
        <Gallery orgId={orgId} canWrite={canWrite} />
      </section>
    </LastData>
  );
}

function NewTemplate({ orgId }: { orgId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const types = useTypeWords();
  const [form, setForm] = useState({ name: '', type: 'receipt' as TemplateType });
  const create = useMutation({
    mutationFn: () =>
      data(
        api.POST('/orgs/{orgId}/templates', {
          params: { path: { orgId } },
          body: { name: form.name, type: form.type, content: STARTERS[form.type].content },
        }),
      ),
    onSuccess: async (created) => {
      saveSample(created.id, JSON.stringify(STARTERS[form.type].sample, null, 2));
      await queryClient.invalidateQueries({ queryKey: templateKeys.templates(orgId) });
      void navigate(`/o/${orgId}/templates/${created.id}`);
    },
  });
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
      noValidate
    >
      <h2>{t('templates.new')}</h2>
      <div className="row">
        <Field
          label={t('templates.name')}
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
          error={fieldError(create.error, 'name')}
        />
        <SelectField
          label={t('templates.typeLabel')}
          value={form.type}
          onChange={(e) => setForm({ ...form, type: e.target.value as TemplateType })}
        >
          {TYPES.map((ty) => (
            <option key={ty} value={ty}>
              {types[ty]}
            </option>
          ))}
        </SelectField>
      </div>
      <FormError error={create.error} />
      <Button type="submit" busy={create.isPending}>
        {t('templates.create')}
      </Button>
    </form>
  );
}

function Gallery({ orgId, canWrite }: { orgId: string; canWrite: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const gallery = useGallery();
  const types = useTypeWords();
  const use = useMutation({
    mutationFn: (galleryId: string) =>
      data(
        api.POST('/orgs/{orgId}/templates/from-gallery', {
          params: { path: { orgId } },
          body: { galleryId },
        }),
      ),
    onSuccess: async (created, galleryId) => {
      const item = gallery.data?.data.find((g) => g.id === galleryId);
      if (item) saveSample(created.id, JSON.stringify(item.sampleData, null, 2));
      await queryClient.invalidateQueries({ queryKey: templateKeys.templates(orgId) });
      void navigate(`/o/${orgId}/templates/${created.id}`);
    },
  });
  const categories: Record<string, string> = {
    receipt: t('templates.category.receipt'),
    label: t('templates.category.label'),
    report: t('templates.category.report'),
    estimate: t('templates.category.estimate'),
  };
  return (
    <section aria-labelledby="gallery-title">
      <h2 id="gallery-title">{t('templates.gallery')}</h2>
      <p className="hint">{t('templates.galleryLead')}</p>
      {gallery.isError && !gallery.data ? (
        <LoadError error={gallery.error} onRetry={() => void gallery.refetch()} />
      ) : !gallery.data ? (
        <Loading />
      ) : (
        <ul className="gallery">
          {gallery.data.data.map((g) => (
            <li key={g.id} className="gallery-item">
              <h3>{g.name}</h3>
              <p className="hint">
                {/* A receipt's or a label's type already says its category. */}
                {[
                  g.category === 'receipt' || g.category === 'label'
                    ? ''
                    : (categories[g.category] ?? g.category),
                  types[g.type],
                  g.paper,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
              <p className="gallery-description">{g.description}</p>
              {canWrite && (
                <Button
                  variant="secondary"
                  busy={use.isPending && use.variables === g.id}
                  disabled={use.isPending}
                  onClick={() => use.mutate(g.id)}
                  aria-label={t('templates.useNamed', { name: g.name })}
                >
                  {t('templates.use')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <FormError error={use.error} />
    </section>
  );
}
