/**
 * Print from the dashboard: a printer, a type and its content (a sample to start from), and
 * metadata; the job request is the one POST /v1/jobs takes, and the API's field messages show
 * under the fields they name.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import type { Mode } from '../../frame';
import { Button, Dialog, FormError, SelectField, fieldError } from '../../ui';
import type { PrinterGroup } from '../groups/data';
import type { Printer } from '../printers/data';
import { useCreateJob, type Job } from './data';

const TYPES = ['receipt', 'text', 'zpl', 'epl'] as const;
type JobType = (typeof TYPES)[number];

const SAMPLES: Record<JobType, string> = {
  receipt: JSON.stringify(
    {
      blocks: [
        { type: 'text', value: 'Printwire', align: 'center', bold: true, size: 2 },
        { type: 'line' },
        { type: 'pair', left: '2 x Croissant', right: '2.60' },
        { type: 'pair', left: 'TOTAL', right: '2.60', bold: true },
        { type: 'cut' },
      ],
    },
    null,
    2,
  ),
  text: 'Printwire\nHello from the dashboard.\n',
  zpl: '^XA\n^CF0,40\n^FO40,40^FDPrintwire^FS\n^XZ',
  epl: 'N\nA40,40,0,4,1,1,N,"Printwire"\nP1\n',
};

/** The select's value for a group (a printer's is its id). */
const GROUP = 'group:';

/** The job request of the form; a receipt's JSON that does not parse is a field message. */
function request(form: {
  target: string;
  type: JobType;
  content: string;
  metadata: string;
}): { body: Record<string, unknown> } | { problem: string } {
  let data: unknown = form.content;
  if (form.type === 'receipt') {
    try {
      data = JSON.parse(form.content);
    } catch {
      return { problem: 'jobs.create.badJson' };
    }
  }
  const metadata: Record<string, string> = {};
  for (const line of form.metadata.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) metadata[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return {
    body: {
      ...(form.target.startsWith(GROUP)
        ? { printerGroupId: form.target.slice(GROUP.length) }
        : form.target
          ? { printerId: form.target }
          : {}),
      type: form.type,
      data,
      ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    },
  };
}

function TextArea({
  label,
  hint,
  error,
  value,
  onChange,
  rows,
}: {
  label: string;
  hint?: string;
  error?: string | undefined;
  value: string;
  onChange: (value: string) => void;
  rows: number;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={rows}
        value={value}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint ${id}-error`}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function CreateJob({
  orgId,
  mode,
  printers,
  groups,
  onClose,
}: {
  orgId: string;
  mode: Mode;
  printers: Printer[];
  groups: PrinterGroup[];
  onClose: (created?: Job) => void;
}) {
  const { t } = useTranslation();
  const create = useCreateJob(orgId, mode);
  const usable = printers.filter((p) => mode === 'test' || !p.sandbox);
  const first = usable.find((p) => p.isDefault) ?? usable[0];
  const [form, setForm] = useState({
    target: first?.id ?? '',
    type: (first?.kind === 'label' ? 'zpl' : 'receipt') as JobType,
    content: first?.kind === 'label' ? SAMPLES.zpl : SAMPLES.receipt,
    metadata: '',
  });
  const [problem, setProblem] = useState<string>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const built = request(form);
    if ('problem' in built) {
      setProblem(built.problem);
      return;
    }
    setProblem(undefined);
    create.mutate(built.body, { onSuccess: (job) => onClose(job) });
  };
  // Receipt problems name paths inside data (`data.blocks[3].size`): shown whole, under it.
  const dataIssue =
    create.error instanceof ApiError
      ? create.error.details.find((d) => /^data([.[]|$)/.test(d.path))
      : undefined;
  const dataError = problem ? t(problem) : dataIssue?.message;
  return (
    <Dialog title={t('jobs.create.title')} onClose={() => onClose()}>
      <form onSubmit={submit} className="create-job">
        <SelectField
          label={groups.length > 0 ? t('jobs.create.printerOrGroup') : t('jobs.create.printer')}
          hint={groups.length > 0 ? t('jobs.create.groupHint') : undefined}
          value={form.target}
          error={
            fieldError(create.error, 'printerId') ??
            fieldError(create.error, 'printerGroupId') ??
            fieldError(create.error, 'printer')
          }
          onChange={(e) => setForm({ ...form, target: e.target.value })}
        >
          {usable.length === 0 && <option value="">{t('jobs.create.noPrinter')}</option>}
          {groups.length > 0 ? (
            <>
              <optgroup label={t('jobs.create.printers')}>
                {usable.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.alias ?? p.name}
                  </option>
                ))}
              </optgroup>
              <optgroup label={t('jobs.create.groups')}>
                {groups.map((g) => (
                  <option key={g.id} value={`${GROUP}${g.id}`}>
                    {g.name}
                  </option>
                ))}
              </optgroup>
            </>
          ) : (
            usable.map((p) => (
              <option key={p.id} value={p.id}>
                {p.alias ?? p.name}
              </option>
            ))
          )}
        </SelectField>
        <SelectField
          label={t('jobs.create.type')}
          value={form.type}
          error={fieldError(create.error, 'type')}
          onChange={(e) => {
            const type = e.target.value as JobType;
            setForm({ ...form, type, content: SAMPLES[type] });
          }}
        >
          {TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`jobs.create.types.${type}`)}
            </option>
          ))}
        </SelectField>
        <TextArea
          label={t('jobs.create.content')}
          hint={t('jobs.create.contentHint')}
          rows={10}
          value={form.content}
          error={dataError}
          onChange={(content) => setForm({ ...form, content })}
        />
        <TextArea
          label={t('jobs.create.metadata')}
          hint={t('jobs.create.metadataHint')}
          rows={2}
          value={form.metadata}
          error={fieldError(create.error, 'metadata')}
          onChange={(metadata) => setForm({ ...form, metadata })}
        />
        <FormError error={create.error} />
        <div className="actions">
          <Button
            type="submit"
            busy={create.isPending}
            disabled={usable.length === 0 && groups.length === 0}
          >
            {t('jobs.create.submit')}
          </Button>
          <Button variant="secondary" onClick={() => onClose()}>
            {t('common.cancel')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
