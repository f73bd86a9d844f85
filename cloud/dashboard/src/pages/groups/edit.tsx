/**
 * A new group (`/o/org_…/printer-groups/new`) or one group's settings (`…/printer-groups/{id}`):
 * its name, how it chooses a printer (each strategy with a sentence saying what it does), and its
 * printers in order, chosen from the organization's, moved up and down with buttons, removed.
 * The API's messages show under the field they name; Delete asks once, naming the group.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { queryClient, useCan } from '../../data';
import { useMode } from '../../frame';
import {
  Button,
  ConfirmDialog,
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
import { usePrinters, type Printer } from '../printers/data';
import { printerStatusWord } from '../printers/status';
import {
  MAX_MEMBERS,
  STRATEGIES,
  deleteGroup,
  groupJobsPath,
  groupKeys,
  useGroups,
  useSaveGroup,
  type GroupForm,
  type PrinterGroup,
} from './data';
import { MemberOrder, printerName } from './members';
import { useStrategyWords } from './strategy';
import './groups.css';

export function GroupEditor() {
  const { t } = useTranslation();
  const orgId = useOrgId();
  const groupId = useParams().groupId;
  const [mode] = useMode();
  const groups = useGroups(orgId);
  const printers = usePrinters(orgId, mode);
  const back = `/o/${orgId}/printer-groups${mode === 'test' ? '?mode=test' : ''}`;
  if (groups.isError && !groups.data)
    return <LoadError error={groups.error} onRetry={() => void groups.refetch()} />;
  if (printers.isError && !printers.data)
    return <LoadError error={printers.error} onRetry={() => void printers.refetch()} />;
  if (!groups.data || !printers.data) return <Loading />;
  const group = groupId ? groups.data.data.find((g) => g.id === groupId) : undefined;
  if (groupId && !group) {
    return (
      <section>
        <PageTitle lead={t('groups.notFound')}>{groupId}</PageTitle>
        <Link to={back}>{t('groups.back')}</Link>
      </section>
    );
  }
  return (
    <LastData query={printers}>
      <GroupForm
        // A new form when the group saved changes under it (the list was refreshed).
        key={group ? `${group.id}:${group.updatedAt}` : 'new'}
        orgId={orgId}
        group={group}
        printers={printers.data.data}
        back={back}
      />
    </LastData>
  );
}

function GroupForm({
  orgId,
  group,
  printers,
  back,
}: {
  orgId: string;
  group: PrinterGroup | undefined;
  printers: Printer[];
  back: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [mode] = useMode();
  const canWrite = useCan(orgId, 'printers:write');
  const save = useSaveGroup(orgId, group?.id);
  const strategies = useStrategyWords();
  const [form, setForm] = useState<GroupForm>({
    name: group?.name ?? '',
    strategy: group?.strategy ?? 'failover',
    printerIds: group ? [...group.printerIds] : [],
  });
  const byId = new Map(printers.map((p) => [p.id, p]));
  const addable = printers.filter((p) => !form.printerIds.includes(p.id));
  const [adding, setAdding] = useState('');
  const toAdd = addable.some((p) => p.id === adding) ? adding : (addable[0]?.id ?? '');
  const full = form.printerIds.length >= MAX_MEMBERS;
  const [deleting, setDeleting] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ ...form, name: form.name.trim() }, { onSuccess: () => void navigate(back) });
  };
  // A member the API refused is named by its place (`printerIds.2`): said under the list.
  const membersError =
    fieldError(save.error, 'printerIds') ??
    (save.error instanceof ApiError
      ? save.error.details.find((d) => d.path.startsWith('printerIds'))?.message
      : undefined);
  const title = group ? t('groups.editTitle', { name: group.name }) : t('groups.newTitle');
  return (
    <section className="group-editor">
      <p>
        <Link to={back}>{t('groups.back')}</Link>
      </p>
      <PageTitle lead={t('groups.editLead')}>{title}</PageTitle>
      {group && (
        <>
          <p className="group-id">
            {t('groups.id')} <code>{group.id}</code>
          </p>
          <p>
            <Link to={groupJobsPath(orgId, group.id, mode)}>{t('groups.jobs')}</Link>
          </p>
        </>
      )}
      <form onSubmit={submit} noValidate>
        <Field
          label={t('groups.name')}
          hint={t('groups.nameHint')}
          value={form.name}
          dir="auto"
          maxLength={100}
          disabled={!canWrite}
          error={fieldError(save.error, 'name')}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
        />
        <fieldset className="strategies" disabled={!canWrite}>
          <legend>{t('groups.strategy')}</legend>
          {STRATEGIES.map((s) => (
            <label key={s} className="strategy">
              <input
                type="radio"
                name="strategy"
                value={s}
                checked={form.strategy === s}
                onChange={() => setForm({ ...form, strategy: s })}
              />
              <span>
                <strong>{strategies[s].name}</strong>
                <span className="hint block">{strategies[s].what}</span>
              </span>
            </label>
          ))}
          {fieldError(save.error, 'strategy') && (
            <p className="field-error" role="alert">
              {fieldError(save.error, 'strategy')}
            </p>
          )}
        </fieldset>
        <fieldset className="members" disabled={!canWrite}>
          <legend>{t('groups.members.legend')}</legend>
          <p className="hint">{t('groups.members.hint')}</p>
          {form.printerIds.length === 0 ? (
            <p className="empty-members">{t('groups.members.none')}</p>
          ) : (
            <MemberOrder
              printerIds={form.printerIds}
              printers={byId}
              onChange={(printerIds) => setForm({ ...form, printerIds })}
            />
          )}
          {membersError && (
            <p className="field-error" role="alert">
              {membersError}
            </p>
          )}
          {full ? (
            <p className="hint">{t('groups.members.full', { max: MAX_MEMBERS })}</p>
          ) : addable.length === 0 ? (
            <p className="hint">
              {printers.length === 0 ? t('groups.noPrinters') : t('groups.members.allIn')}
            </p>
          ) : (
            <div className="add-member">
              <SelectField
                label={t('groups.members.add')}
                value={toAdd}
                onChange={(e) => setAdding(e.target.value)}
              >
                {addable.map((p) => (
                  <option key={p.id} value={p.id}>
                    {t('groups.members.option', {
                      name: printerName(p, p.id),
                      status: printerStatusWord(p.status),
                    })}
                  </option>
                ))}
              </SelectField>
              <Button
                variant="secondary"
                onClick={() => {
                  setForm({ ...form, printerIds: [...form.printerIds, toAdd] });
                  setAdding('');
                }}
              >
                {t('groups.members.addButton')}
              </Button>
            </div>
          )}
        </fieldset>
        <FormError error={save.error} />
        {canWrite && (
          <div className="actions">
            <Button type="submit" busy={save.isPending}>
              {group ? t('groups.save') : t('groups.create')}
            </Button>
            <Button variant="secondary" onClick={() => void navigate(back)}>
              {t('common.cancel')}
            </Button>
            {group && (
              <Button
                variant="danger"
                className="button danger push"
                onClick={() => setDeleting(true)}
              >
                {t('groups.delete')}
              </Button>
            )}
          </div>
        )}
      </form>
      {group && deleting && (
        <ConfirmDialog
          title={t('groups.deleteTitle', { name: group.name })}
          message={t('groups.deleteConfirm')}
          action={t('groups.delete')}
          run={() => deleteGroup(orgId, group.id)}
          onDone={async () => {
            await navigate(back);
            await queryClient.invalidateQueries({ queryKey: groupKeys.all(orgId) });
          }}
          onClose={() => setDeleting(false)}
        />
      )}
    </section>
  );
}
