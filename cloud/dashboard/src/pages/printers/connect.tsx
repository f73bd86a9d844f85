/**
 * "Add a printer that connects by itself": a Star CloudPRNT or Epson Server Direct Print printer
 * fetches its jobs from the cloud, with no computer beside it. Name, protocol and paper; then the
 * address to type into the printer's web settings, shown once (its secret is in the path), the
 * steps for that vendor's settings page, and the printer's state as its first poll arrives
 * (live, from the event channel through the printers query).
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCan } from '../../data';
import { formatDate, formatRelative } from '../../i18n';
import {
  Button,
  Field,
  FormError,
  PageTitle,
  SecretPanel,
  SelectField,
  fieldError,
} from '../../ui';
import { useOrgId } from '../organization';
import {
  useCreateCloudPrinter,
  usePrinters,
  type NewCloudPrinter,
  type PullProtocol,
} from './data';
import { PrinterStatus } from './status';
import './printers.css';

const PROTOCOLS: PullProtocol[] = ['cloudprnt', 'sdp'];
/** The steps of each vendor's settings page, in order (`cloudPrinter.steps.<protocol>.<n>`). */
const STEPS: Record<PullProtocol, readonly string[]> = {
  cloudprnt: ['ip', 'open', 'enable', 'url', 'interval', 'save'],
  sdp: ['ip', 'open', 'enable', 'url', 'interval', 'save'],
};

export function ConnectPrinter() {
  const { t } = useTranslation();
  const orgId = useOrgId();
  const canAdd = useCan(orgId, 'devices:write');
  const create = useCreateCloudPrinter(orgId);
  const [form, setForm] = useState<NewCloudPrinter>({
    name: '',
    protocol: 'cloudprnt',
    paper: '80mm',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!create.isPending) create.mutate({ ...form, name: form.name.trim() });
  };
  const back = (
    <p>
      <Link to={`/o/${orgId}/printers`}>{t('cloudPrinter.back')}</Link>
    </p>
  );
  if (create.isSuccess) {
    return (
      <section>
        <PageTitle>{t('cloudPrinter.title')}</PageTitle>
        <Created
          orgId={orgId}
          printerId={create.data.printer.id}
          name={create.data.printer.name}
          protocol={form.protocol}
          url={create.data.url}
          onAnother={() => {
            create.reset();
            setForm({ ...form, name: '' });
          }}
        />
        {back}
      </section>
    );
  }
  return (
    <section>
      <PageTitle lead={t('cloudPrinter.lead')}>{t('cloudPrinter.title')}</PageTitle>
      {!canAdd && <p className="notice">{t('cloudPrinter.notAllowed')}</p>}
      <form className="panel" onSubmit={submit} noValidate>
        <Field
          label={t('cloudPrinter.name')}
          hint={t('cloudPrinter.nameHint')}
          value={form.name}
          maxLength={100}
          dir="auto"
          required
          error={fieldError(create.error, 'name')}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
        />
        <fieldset>
          <legend>{t('cloudPrinter.protocol')}</legend>
          {PROTOCOLS.map((p) => (
            <label key={p} className="radio">
              <input
                type="radio"
                name="protocol"
                value={p}
                checked={form.protocol === p}
                onChange={() => setForm({ ...form, protocol: p })}
              />
              <span>
                {t(`cloudPrinter.protocols.${p}`)}
                <span className="hint block">{t(`cloudPrinter.models.${p}`)}</span>
              </span>
            </label>
          ))}
          {fieldError(create.error, 'protocol') && (
            <p className="field-error" role="alert">
              {fieldError(create.error, 'protocol')}
            </p>
          )}
        </fieldset>
        <SelectField
          label={t('cloudPrinter.paper')}
          hint={t('cloudPrinter.paperHint')}
          value={form.paper}
          error={fieldError(create.error, 'paper')}
          onChange={(e) => setForm({ ...form, paper: e.target.value as NewCloudPrinter['paper'] })}
        >
          <option value="80mm">{t('cloudPrinter.papers.80mm')}</option>
          <option value="58mm">{t('cloudPrinter.papers.58mm')}</option>
        </SelectField>
        <FormError error={create.error} />
        <div className="actions">
          <Button type="submit" busy={create.isPending} disabled={!canAdd}>
            {t('cloudPrinter.create')}
          </Button>
        </div>
      </form>
      {back}
    </section>
  );
}

/** After creation: the address once, the vendor's steps, and the first poll as it arrives. */
function Created({
  orgId,
  printerId,
  name,
  protocol,
  url,
  onAnother,
}: {
  orgId: string;
  printerId: string;
  name: string;
  protocol: PullProtocol;
  url: string;
  onAnother: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="panel cloud-printer-created">
      <h2 dir="auto">{t('cloudPrinter.createdTitle', { name })}</h2>
      <SecretPanel label={t(`cloudPrinter.addressLabel.${protocol}`)} value={url} />
      <p className="notice warn">{t('cloudPrinter.keepSecret')}</p>
      <h3>{t(`cloudPrinter.stepsTitle.${protocol}`)}</h3>
      <ol className="steps">
        {STEPS[protocol].map((step) => (
          <li key={step}>{t(`cloudPrinter.steps.${protocol}.${step}`)}</li>
        ))}
      </ol>
      <FirstPoll orgId={orgId} printerId={printerId} />
      <div className="actions">
        <Button variant="secondary" onClick={onAnother}>
          {t('cloudPrinter.another')}
        </Button>
      </div>
    </div>
  );
}

/** The new printer's state, live: waiting for its first poll, then its status and the poll's time. */
function FirstPoll({ orgId, printerId }: { orgId: string; printerId: string }) {
  const { t } = useTranslation();
  const printers = usePrinters(orgId, 'live');
  const printer = printers.data?.data.find((p) => p.id === printerId);
  const lastPollAt =
    printer?.reach && 'lastPollAt' in printer.reach ? printer.reach.lastPollAt : null;
  const polled = lastPollAt !== null || printer?.status === 'online';
  return (
    <div className={`first-poll notice${polled ? ' success' : ''}`} role="status">
      {polled && printer ? (
        <p>
          <PrinterStatus status={printer.status} />{' '}
          {lastPollAt ? (
            <>
              {t('cloudPrinter.polled')}{' '}
              <time dateTime={lastPollAt} title={formatDate(lastPollAt, true)}>
                {formatRelative(lastPollAt)}
              </time>
            </>
          ) : (
            t('cloudPrinter.polledNow')
          )}
        </p>
      ) : (
        <p>{t('cloudPrinter.waiting')}</p>
      )}
    </div>
  );
}
