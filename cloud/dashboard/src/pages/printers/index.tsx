/**
 * Printers: live status in words (with the time it changed and when its computer was last
 * seen), paper, codepage, capabilities and the device it hangs on; edit alias, default printer
 * and defaults (pushed to the agent at once); print a test page (receipt, label or page by kind).
 * Each printer says how it is reached (reach.tsx). With no printer yet, the next step: an
 * activation code for the agent, or a printer that connects by itself (connect.tsx), which is
 * removed here (its address stops working).
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/client';
import { useCan } from '../../data';
import { useMode } from '../../frame';
import { formatDate, formatRelative } from '../../i18n';
import {
  Button,
  Checkbox,
  ConfirmDialog,
  Dialog,
  Field,
  FormError,
  LastData,
  LoadError,
  Loading,
  PageTitle,
  SelectField,
  fieldError,
} from '../../ui';
import { useOrgId } from '../organization';
import {
  afterCloudPrinterRemoved,
  removeCloudPrinter,
  usePrinters,
  useTestPage,
  useUpdatePrinter,
  type Printer,
  type PrinterDefaults,
} from './data';
import { PrinterReach, pollsByItself } from './reach';
import { PrinterStatus } from './status';
import './printers.css';

const CODEPAGES = ['CP437', 'CP850', 'CP858', 'CP1252', 'CP866', 'ISO-8859-15'] as const;
const PAPERS = ['58mm', '80mm'] as const;
const CUTS = ['full', 'partial', 'none'] as const;
/** The labels shops and carriers use most; any other size is typed in. */
const LABEL_SIZES = [
  '4x6in',
  '4x4in',
  '4x3in',
  '4x2in',
  '3x2in',
  '3x1in',
  '2.25x1.25in',
  '2x1in',
  '100x150mm',
  '100x100mm',
  '100x50mm',
  '57x32mm',
  '50x25mm',
] as const;
const DPIS = [
  { dpi: 203, dpmm: 8 },
  { dpi: 300, dpmm: 12 },
  { dpi: 600, dpmm: 24 },
] as const;
const OTHER_SIZE = 'other';

function Ago({ iso }: { iso: string | null | undefined }) {
  const { t } = useTranslation();
  if (!iso) return <>{t('printers.never')}</>;
  return (
    <time dateTime={iso} title={formatDate(iso, true)}>
      {formatRelative(iso)}
    </time>
  );
}

export function Printers() {
  const { t } = useTranslation();
  const orgId = useOrgId();
  const [mode] = useMode();
  const printers = usePrinters(orgId, mode);
  const canWrite = useCan(orgId, 'printers:write');
  const canPrint = useCan(orgId, 'jobs:write');
  const canActivate = useCan(orgId, 'activationCodes:write');
  const canAdd = useCan(orgId, 'devices:write');
  const [editing, setEditing] = useState<Printer>();
  const [removing, setRemoving] = useState<Printer>();
  if (printers.isError && !printers.data)
    return <LoadError error={printers.error} onRetry={() => void printers.refetch()} />;
  if (!printers.data) return <Loading />;
  const list = printers.data.data;
  const real = list.filter((p) => !p.sandbox);
  return (
    <LastData query={printers}>
      <section>
        <PageTitle lead={mode === 'test' ? t('printers.leadTest') : t('printers.lead')}>
          {t('printers.title')}
        </PageTitle>
        {canAdd && real.length > 0 && (
          <p>
            <Link className="button secondary" to={`/o/${orgId}/printers/connect`}>
              {t('cloudPrinter.title')}
            </Link>
          </p>
        )}
        {real.length === 0 && (
          <div className="empty">
            <p>{t('printers.empty')}</p>
            {canActivate && (
              <p>
                <Link to={`/o/${orgId}/devices${mode === 'test' ? '?mode=test' : ''}`}>
                  {t('printers.emptyAction')}
                </Link>
              </p>
            )}
            {canAdd && (
              <p>
                {t('printers.emptyCloud')}{' '}
                <Link to={`/o/${orgId}/printers/connect`}>{t('cloudPrinter.title')}</Link>
              </p>
            )}
          </div>
        )}
        {list.length > 0 && (
          <ul className="printer-cards">
            {list.map((p) => (
              <PrinterCard
                key={p.id}
                orgId={orgId}
                printer={p}
                canWrite={canWrite && !p.sandbox}
                canPrint={canPrint}
                canRemove={canAdd && pollsByItself(p)}
                onEdit={() => setEditing(p)}
                onRemove={() => setRemoving(p)}
              />
            ))}
          </ul>
        )}
        {editing && (
          <EditPrinter orgId={orgId} printer={editing} onClose={() => setEditing(undefined)} />
        )}
        {removing && (
          <ConfirmDialog
            title={t('printers.removeTitle', { name: removing.alias ?? removing.name })}
            message={t('printers.removeConfirm', { name: removing.alias ?? removing.name })}
            action={t('printers.remove')}
            run={() => removeCloudPrinter(orgId, removing.id)}
            onDone={() => afterCloudPrinterRemoved(orgId)}
            onClose={() => setRemoving(undefined)}
          />
        )}
      </section>
    </LastData>
  );
}

function PrinterCard({
  orgId,
  printer: p,
  canWrite,
  canPrint,
  canRemove,
  onEdit,
  onRemove,
}: {
  orgId: string;
  printer: Printer;
  canWrite: boolean;
  canPrint: boolean;
  canRemove: boolean;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const [mode] = useMode();
  const testPage = useTestPage(orgId, p.id);
  const name = p.alias ?? p.name;
  const label = p.kind === 'label';
  const defaults = Object.entries(p.defaults)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => [label && k === 'paper' ? 'labelSize' : k, v] as const);
  const testPageWords = t(
    `printers.testPage.${p.kind === 'label' ? 'label' : p.kind === 'office' ? 'page' : 'receipt'}`,
  );
  return (
    <li className="printer-card" aria-labelledby={`printer-${p.id}`}>
      <div className="printer-head">
        <h2 id={`printer-${p.id}`} dir="auto">
          {name}
        </h2>
        <PrinterStatus status={p.status} />
        {p.isDefault && <span className="badge on">{t('printers.default')}</span>}
        {p.sandbox && <span className="badge">{t('printers.sandbox')}</span>}
      </div>
      <dl className="facts">
        {p.alias && (
          <>
            <dt>{t('printers.name')}</dt>
            <dd>{p.name}</dd>
          </>
        )}
        <dt>{t('printers.statusSince')}</dt>
        <dd>
          <Ago iso={p.lastStatusAt} />
        </dd>
        <dt>{t('printers.reach.title')}</dt>
        <dd className="reach">
          <PrinterReach printer={p} />
        </dd>
        {!pollsByItself(p) && (
          <>
            <dt>{t('printers.device')}</dt>
            <dd>
              {p.device ? (
                <>
                  <span dir="auto">{p.device.name}</span>{' '}
                  <span className="hint">
                    ({t('printers.lastSeen')} <Ago iso={p.device.lastSeenAt} />)
                  </span>
                </>
              ) : (
                '—'
              )}
            </dd>
          </>
        )}
        <dt>{t('printers.kind')}</dt>
        <dd>{t(`printers.kinds.${p.kind}`, { defaultValue: p.kind })}</dd>
        <dt>{t(label ? 'printers.labelSize' : 'printers.paper')}</dt>
        <dd>{(label ? p.defaults.paper : null) ?? p.paper ?? '—'}</dd>
        {label && (
          <>
            <dt>{t('printers.dpi')}</dt>
            <dd>{p.defaults.dpi ? t('printers.dpiValue', { dpi: p.defaults.dpi }) : '—'}</dd>
          </>
        )}
        <dt>{t('printers.codepage')}</dt>
        <dd>{p.codepage ?? '—'}</dd>
        <dt>{t('printers.capabilities')}</dt>
        <dd>{p.capabilities.length > 0 ? p.capabilities.join(', ') : '—'}</dd>
        {defaults.length > 0 && (
          <>
            <dt>{t('printers.defaults')}</dt>
            <dd>{defaults.map(([k, v]) => `${t(`printers.${k}`)}: ${String(v)}`).join(' · ')}</dd>
          </>
        )}
      </dl>
      <div className="actions">
        {canWrite && (
          <Button
            variant="secondary"
            onClick={onEdit}
            aria-label={t('printers.editNamed', { name })}
          >
            {t('printers.edit')}
          </Button>
        )}
        {canPrint && (
          <Button
            variant="secondary"
            busy={testPage.isPending}
            onClick={() => testPage.mutate()}
            aria-label={t('printers.testPageNamed', { action: testPageWords, name })}
          >
            {testPageWords}
          </Button>
        )}
        {canRemove && (
          <Button
            variant="secondary"
            onClick={onRemove}
            aria-label={t('printers.removeNamed', { name })}
          >
            {t('printers.remove')}
          </Button>
        )}
        {testPage.data && (
          <p className="hint" role="status">
            {t('printers.testPage.sent')}{' '}
            <Link
              to={`/o/${orgId}/jobs/${testPage.data.id}${mode === 'test' || p.sandbox ? '?mode=test' : ''}`}
            >
              {t('printers.testPage.follow')}
            </Link>
          </p>
        )}
        {testPage.error && (
          <p className="form-error" role="alert">
            {testPage.error instanceof ApiError && testPage.error.code === 'LICENSE_LIMIT'
              ? t('jobs.actions.quota')
              : testPage.error instanceof ApiError
                ? testPage.error.message
                : t('errors.connection')}
          </p>
        )}
      </div>
    </li>
  );
}

function EditPrinter({
  orgId,
  printer,
  onClose,
}: {
  orgId: string;
  printer: Printer;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const update = useUpdatePrinter(orgId, printer.id);
  const label = printer.kind === 'label';
  const savedPaper = printer.defaults.paper ?? '';
  const knownSize = (LABEL_SIZES as readonly string[]).includes(savedPaper);
  const [form, setForm] = useState({
    alias: printer.alias ?? '',
    isDefault: printer.isDefault,
    paper: label && savedPaper !== '' && !knownSize ? OTHER_SIZE : savedPaper,
    otherSize: label && !knownSize ? savedPaper : '',
    dpi: printer.defaults.dpi ? String(printer.defaults.dpi) : '',
    codepage: printer.defaults.codepage ?? '',
    cut: printer.defaults.cut ?? '',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const orNull = <T extends string>(v: string) => (v === '' ? null : (v as T));
    update.mutate(
      {
        alias: form.alias.trim() === '' ? null : form.alias.trim(),
        ...(form.isDefault !== printer.isDefault ? { isDefault: form.isDefault } : {}),
        defaults: label
          ? {
              paper: orNull(form.paper === OTHER_SIZE ? form.otherSize.trim() : form.paper),
              dpi:
                form.dpi === '' ? null : (Number(form.dpi) as NonNullable<PrinterDefaults['dpi']>),
            }
          : {
              paper: orNull(form.paper),
              codepage: orNull<NonNullable<PrinterDefaults['codepage']>>(form.codepage),
              cut: orNull<NonNullable<PrinterDefaults['cut']>>(form.cut),
            },
      },
      { onSuccess: onClose },
    );
  };
  const agentOwn = t('printers.agentOwn');
  return (
    <Dialog
      title={t('printers.editTitle', { name: printer.alias ?? printer.name })}
      onClose={onClose}
    >
      <form onSubmit={submit}>
        <Field
          label={t('printers.alias')}
          hint={t('printers.aliasHint')}
          value={form.alias}
          error={fieldError(update.error, 'alias')}
          onChange={(e) => setForm({ ...form, alias: e.target.value })}
        />
        <Checkbox
          label={t('printers.makeDefault')}
          hint={t('printers.makeDefaultHint')}
          checked={form.isDefault}
          onChange={(e) => setForm({ ...form, isDefault: e.target.checked })}
        />
        {label ? (
          <>
            <SelectField
              label={t('printers.labelSize')}
              hint={t('printers.labelSizeHint')}
              value={form.paper}
              error={
                form.paper === OTHER_SIZE ? undefined : fieldError(update.error, 'defaults.paper')
              }
              onChange={(e) => setForm({ ...form, paper: e.target.value })}
            >
              <option value="">{agentOwn}</option>
              {LABEL_SIZES.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
              <option value={OTHER_SIZE}>{t('printers.otherSize')}</option>
            </SelectField>
            {form.paper === OTHER_SIZE && (
              <Field
                label={t('printers.customSize')}
                hint={t('printers.customSizeHint')}
                value={form.otherSize}
                required
                error={fieldError(update.error, 'defaults.paper')}
                onChange={(e) => setForm({ ...form, otherSize: e.target.value })}
              />
            )}
            <SelectField
              label={t('printers.dpi')}
              value={form.dpi}
              error={fieldError(update.error, 'defaults.dpi')}
              onChange={(e) => setForm({ ...form, dpi: e.target.value })}
            >
              <option value="">{agentOwn}</option>
              {DPIS.map(({ dpi, dpmm }) => (
                <option key={dpi} value={dpi}>
                  {t('printers.dpiOption', { dpi, dpmm })}
                </option>
              ))}
            </SelectField>
          </>
        ) : (
          <>
            <SelectField
              label={t('printers.paper')}
              value={form.paper}
              error={fieldError(update.error, 'defaults.paper')}
              onChange={(e) => setForm({ ...form, paper: e.target.value })}
            >
              <option value="">{agentOwn}</option>
              {PAPERS.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </SelectField>
            <SelectField
              label={t('printers.codepage')}
              hint={t('printers.codepageHint')}
              value={form.codepage}
              error={fieldError(update.error, 'defaults.codepage')}
              onChange={(e) => setForm({ ...form, codepage: e.target.value })}
            >
              <option value="">{agentOwn}</option>
              {CODEPAGES.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </SelectField>
            <SelectField
              label={t('printers.cut')}
              value={form.cut}
              error={fieldError(update.error, 'defaults.cut')}
              onChange={(e) => setForm({ ...form, cut: e.target.value })}
            >
              <option value="">{agentOwn}</option>
              {CUTS.map((v) => (
                <option key={v} value={v}>
                  {t(`printers.cuts.${v}`)}
                </option>
              ))}
            </SelectField>
          </>
        )}
        <FormError error={update.error} />
        <div className="actions">
          <Button type="submit" busy={update.isPending}>
            {t('printers.save')}
          </Button>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
