/**
 * The template editor: the template with its mustache tags highlighted, sample data as JSON beside
 * it, and a preview that follows the typing (debounced): receipts as the PNG the virtual printer
 * draws, ZPL and EPL as the numbered commands the printer receives, HTML in a sandboxed frame with
 * no scripts. An error is shown at the line it names. Save (name and text), delete after a question.
 */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, api, data } from '../../api/client';
import { queryClient, useCan } from '../../data';
import {
  Button,
  ConfirmDialog,
  Field,
  FormError,
  LoadError,
  Loading,
  PageTitle,
  fieldError,
} from '../../ui';
import { useOrgId } from '../organization';
import {
  saveSample,
  savedSample,
  templateKeys,
  usePreview,
  useGallery,
  useTemplates,
  type Template,
} from './data';
import { Highlighted, parsePosition } from './highlight';
import { HtmlPreview } from './html-preview';
import { LabelPictures } from '../jobs/labels';
import { useTypeWords } from './words';

/** How long the typing must pause before the preview is asked for. */
const PREVIEW_DEBOUNCE_MS = 300;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function TemplateEditor() {
  const { t } = useTranslation();
  const orgId = useOrgId();
  const { templateId = '' } = useParams();
  const templates = useTemplates(orgId);
  if (templates.isError && !templates.data)
    return <LoadError error={templates.error} onRetry={() => void templates.refetch()} />;
  if (!templates.data) return <Loading />;
  const template = templates.data.data.find((x) => x.id === templateId);
  if (!template) {
    return (
      <PageTitle lead={<Link to={`/o/${orgId}/templates`}>{t('templates.back')}</Link>}>
        {t('templates.notFound')}
      </PageTitle>
    );
  }
  return <Editor key={template.id} orgId={orgId} template={template} />;
}

function Editor({ orgId, template }: { orgId: string; template: Template }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const canWrite = useCan(orgId, 'templates:write');
  const types = useTypeWords();
  const [name, setName] = useState(template.name);
  const [content, setContent] = useState(template.content);
  const [sample, setSample] = useState(() => savedSample(template.id) ?? '{}');
  const [deleting, setDeleting] = useState(false);
  useEffect(() => saveSample(template.id, sample), [template.id, sample]);
  // No sample kept in this browser: a template copied from the gallery gets the gallery's own.
  const gallery = useGallery();
  const fromGallery = gallery.data?.data.find((g) => g.content === template.content);
  useEffect(() => {
    if (fromGallery && savedSample(template.id) === '{}' && sample === '{}') {
      setSample(JSON.stringify(fromGallery.sampleData, null, 2));
    }
  }, [fromGallery, template.id, sample]);

  let sampleError: string | undefined;
  try {
    const parsed: unknown = JSON.parse(sample);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      sampleError = t('templates.sampleNotObject');
  } catch (e) {
    sampleError = t('templates.sampleInvalid', { reason: (e as Error).message });
  }
  const settledContent = useDebounced(content, PREVIEW_DEBOUNCE_MS);
  const settledSample = useDebounced(sampleError ? undefined : sample, PREVIEW_DEBOUNCE_MS);
  const preview = usePreview(orgId, template.id, settledContent, settledSample);
  // While the draft does not render, the last preview that did stays, greyed.
  const [lastPreview, setLastPreview] = useState(preview.data);
  useEffect(() => {
    if (preview.data && !preview.isError) setLastPreview(preview.data);
  }, [preview.data, preview.isError]);
  const previewError = preview.error instanceof ApiError ? preview.error : undefined;
  const contentIssue = previewError?.field('content')?.message;
  const dataIssue = previewError?.field('data')?.message;
  const position = parsePosition(contentIssue ?? dataIssue ?? '');
  const errorLine = position && !position.inOutput ? position.line : undefined;

  const save = useMutation({
    mutationFn: () =>
      data(
        api.PATCH('/orgs/{orgId}/templates/{id}', {
          params: { path: { orgId, id: template.id } },
          body: { name, content },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.templates(orgId) }),
  });
  const dirty = name !== template.name || content !== template.content;
  const saveIssue = parsePosition(
    save.error instanceof ApiError ? (save.error.field('content')?.message ?? '') : '',
  );

  return (
    <section className="template-editor">
      <PageTitle
        lead={
          <>
            <Link to={`/o/${orgId}/templates`}>{t('templates.back')}</Link>
            {' · '}
            {types[template.type]}
            {template.paper && ` · ${template.paper}`}
            {' · '}
            {t('templates.versionN', { version: template.version })}
          </>
        }
      >
        {template.name}
      </PageTitle>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
        noValidate
      >
        <div className="row editor-head">
          <Field
            label={t('templates.name')}
            value={name}
            readOnly={!canWrite}
            onChange={(e) => setName(e.target.value)}
            error={fieldError(save.error, 'name')}
          />
        </div>
        <div className="editor-grid">
          <CodeField
            label={t('templates.content')}
            value={content}
            onChange={setContent}
            readOnly={!canWrite}
            errorLine={errorLine ?? saveIssue?.line}
          />
          <div className="field sample-field">
            <SampleField value={sample} onChange={setSample} error={sampleError} />
          </div>
        </div>
        {(contentIssue ?? dataIssue) && (
          <div className="notice error" role="alert">
            <p>
              {position
                ? position.inOutput
                  ? t('templates.errorInOutput', {
                      line: position.line,
                      column: position.column,
                      reason: position.reason,
                    })
                  : t('templates.errorAt', {
                      line: position.line,
                      column: position.column,
                      reason: position.reason,
                    })
                : (contentIssue ?? dataIssue)}
            </p>
          </div>
        )}
        {canWrite && (
          <>
            <FormError error={saveIssue ? undefined : save.error} />
            <div className="actions">
              <Button type="submit" busy={save.isPending} disabled={!dirty}>
                {t('templates.save')}
              </Button>
              {save.isSuccess && !dirty && (
                <span className="hint" role="status">
                  {t('templates.saved')}
                </span>
              )}
              <Button variant="danger" onClick={() => setDeleting(true)}>
                {t('templates.delete')}
              </Button>
            </div>
          </>
        )}
      </form>
      <Preview
        type={template.type}
        preview={preview.isError ? lastPreview : preview.data}
        stale={preview.isError}
        busy={preview.isFetching}
        failed={preview.isError && !previewError}
      />
      {deleting && (
        <ConfirmDialog
          title={t('templates.deleteTitle', { name: template.name })}
          message={t('templates.deleteConfirm', { name: template.name })}
          action={t('templates.delete')}
          run={() =>
            data(
              api.DELETE('/orgs/{orgId}/templates/{id}', {
                params: { path: { orgId, id: template.id } },
              }),
            )
          }
          onDone={async () => {
            // Leave the editor first (it would say "not found"), the list already without it.
            queryClient.setQueryData(
              templateKeys.templates(orgId),
              (list?: { data: Template[] }) =>
                list ? { ...list, data: list.data.filter((x) => x.id !== template.id) } : list,
            );
            void navigate(`/o/${orgId}/templates`);
            await queryClient.invalidateQueries({ queryKey: templateKeys.templates(orgId) });
          }}
          onClose={() => setDeleting(false)}
        />
      )}
    </section>
  );
}

/** A textarea over the highlighted drawing of its text, with line numbers. */
function CodeField({
  label,
  value,
  onChange,
  readOnly,
  errorLine,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  readOnly: boolean;
  errorLine: number | undefined;
}) {
  const id = useId();
  const drawing = useRef<HTMLPreElement>(null);
  const gutter = useRef<HTMLPreElement>(null);
  const lines = value.split('\n').length;
  return (
    <div className="field code-field">
      <label htmlFor={id}>{label}</label>
      <div className="code-editor">
        <pre className="gutter" ref={gutter} aria-hidden="true">
          {Array.from({ length: lines }, (_, i) => (
            <span key={i} className={i + 1 === errorLine ? 'error-line' : undefined}>
              {i + 1}
            </span>
          ))}
        </pre>
        <div className="code-layer">
          <pre className="drawing" ref={drawing} aria-hidden="true">
            <Highlighted content={value} {...(errorLine ? { errorLine } : {})} />
          </pre>
          <textarea
            id={id}
            value={value}
            readOnly={readOnly}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            wrap="off"
            aria-invalid={errorLine ? true : undefined}
            onChange={(e) => onChange(e.target.value)}
            onScroll={(e) => {
              const { scrollTop, scrollLeft } = e.currentTarget;
              if (drawing.current) {
                drawing.current.scrollTop = scrollTop;
                drawing.current.scrollLeft = scrollLeft;
              }
              if (gutter.current) gutter.current.scrollTop = scrollTop;
            }}
          />
        </div>
      </div>
    </div>
  );
}

function SampleField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (v: string) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{t('templates.sample')}</label>
      <textarea
        id={id}
        className="sample"
        value={value}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
      />
      <p className="hint" id={`${id}-hint`}>
        {t('templates.sampleHint')}
      </p>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

function Preview({
  type,
  preview,
  stale,
  busy,
  failed,
}: {
  type: Template['type'];
  stale: boolean;
  preview:
    | {
        type: string;
        output: string;
        image?: string;
        labels?: string[];
        labelCount?: number;
        skipped?: string[];
        warnings?: string[];
      }
    | undefined;
  busy: boolean;
  failed: boolean;
}) {
  const { t } = useTranslation();
  const [zoom, setZoom] = useState(1);
  const [width, setWidth] = useState<number>();
  const zoomId = useId();
  return (
    <section
      className={stale ? 'preview stale' : 'preview'}
      aria-labelledby="preview-title"
      aria-busy={busy || undefined}
    >
      <div className="toolbar">
        <h2 id="preview-title">{t('templates.preview')}</h2>
        {type === 'receipt' && (
          <div className="zoom">
            <label htmlFor={zoomId}>{t('templates.zoom')}</label>
            <select id={zoomId} value={zoom} onChange={(e) => setZoom(Number(e.target.value))}>
              {[0.5, 1, 1.5, 2].map((z) => (
                <option key={z} value={z}>
                  {`${z * 100} %`}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {failed && <p className="hint">{t('errors.connection')}</p>}
      {stale && preview && <p className="hint">{t('templates.previewStale')}</p>}
      {!preview ? (
        <p className="hint">{t('templates.previewWaiting')}</p>
      ) : preview.image ? (
        <div className="receipt-paper">
          <img
            src={preview.image}
            alt={t('templates.receiptAlt')}
            onLoad={(e) => setWidth(e.currentTarget.naturalWidth)}
            style={width ? { width: width * zoom } : undefined}
          />
        </div>
      ) : type === 'html' ? (
        <HtmlPreview html={preview.output} title={t('templates.htmlFrame')} />
      ) : preview.labels && preview.labels.length > 0 ? (
        <LabelPictures
          labels={preview.labels}
          count={preview.labelCount ?? preview.labels.length}
          skipped={preview.skipped ?? []}
          warnings={preview.warnings ?? []}
          alt={(n) => t('templates.labelAlt', { n })}
          code={
            <ol className="commands" aria-label={t('templates.commands')} tabIndex={0}>
              {preview.output.split('\n').map((line, i) => (
                <li key={i}>
                  <code>{line || ' '}</code>
                </li>
              ))}
            </ol>
          }
        />
      ) : (
        <ol className="commands" aria-label={t('templates.commands')} tabIndex={0}>
          {preview.output.split('\n').map((line, i) => (
            <li key={i}>
              <code>{line || ' '}</code>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
