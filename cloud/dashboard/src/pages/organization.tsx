/** An organization: the start page that picks one, a new one, its overview and its settings. */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { api, data, type Organization } from '../api/client';
import { keys, queryClient, useCan, useOrg, useOrgs } from '../data';
import { i18n } from '../i18n';
import {
  Button,
  Checkbox,
  Dialog,
  Field,
  FormError,
  LastData,
  LoadError,
  Loading,
  PageTitle,
  SelectField,
  fieldError,
} from '../ui';

type Locale = 'en' | 'fr' | 'ht';
const LOCALES: Locale[] = ['en', 'fr', 'ht'];
const RETENTION_DAYS = [0, 1, 7, 30, 90] as const;

export const useOrgId = (): string => useParams().orgId ?? '';

/** `/`: the first organization, or a new one when there is none. */
export function Start() {
  const orgs = useOrgs();
  if (orgs.isError) return <LoadError error={orgs.error} onRetry={() => void orgs.refetch()} />;
  if (!orgs.data) return <Loading />;
  const first = orgs.data.data[0];
  return <Navigate to={first ? `/o/${first.id}` : '/new-organization'} replace />;
}

export function NewOrganization() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const orgs = useOrgs();
  const [form, setForm] = useState({ name: '', locale: i18n.language as Locale });
  const create = useMutation({
    mutationFn: () => data(api.POST('/orgs', { body: form })),
    onSuccess: async (org) => {
      await queryClient.invalidateQueries({ queryKey: keys.orgs });
      void navigate(`/o/${org.id}`);
    },
  });
  const first = orgs.data?.data.length === 0;
  return (
    <section className="narrow">
      <PageTitle lead={first ? t('newOrg.leadFirst') : t('newOrg.lead')}>
        {t('newOrg.title')}
      </PageTitle>
      <form
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          create.mutate();
        }}
        noValidate
      >
        <Field
          label={t('fields.orgName')}
          value={form.name}
          required
          onChange={(e) => setForm({ ...form, name: e.target.value })}
          error={fieldError(create.error, 'name')}
        />
        <LocaleSelect
          value={form.locale}
          onChange={(locale) => setForm({ ...form, locale })}
          hint={t('settings.localeHint')}
        />
        <FormError error={create.error} />
        <Button type="submit" busy={create.isPending}>
          {t('newOrg.submit')}
        </Button>
      </form>
    </section>
  );
}

function LocaleSelect({
  value,
  onChange,
  hint,
}: {
  value: Locale;
  onChange: (l: Locale) => void;
  hint: string;
}) {
  const { t } = useTranslation();
  return (
    <SelectField
      label={t('fields.locale')}
      hint={hint}
      value={value}
      onChange={(e) => onChange(e.target.value as Locale)}
    >
      {LOCALES.map((l) => (
        <option key={l} value={l}>
          {t(`languages.${l}`)}
        </option>
      ))}
    </SelectField>
  );
}

export function Settings() {
  const orgId = useOrgId();
  const org = useOrg(orgId);
  if (org.isError && !org.data)
    return <LoadError error={org.error} onRetry={() => void org.refetch()} />;
  if (!org.data) return <Loading />;
  return (
    <LastData query={org}>
      <SettingsForm key={org.data.id} org={org.data} />
    </LastData>
  );
}

function SettingsForm({ org }: { org: Organization }) {
  const { t } = useTranslation();
  const canUpdate = useCan(org.id, 'org:update');
  const canDelete = useCan(org.id, 'org:delete');
  const [form, setForm] = useState({
    name: org.name,
    locale: org.locale as Locale,
    retentionDays: org.retentionDays,
    requireSignature: org.requireSignature,
    unsignedModeEnabled: org.unsignedModeEnabled,
    devModeEnabled: org.devModeEnabled,
    localDownloadsToPrivateNetwork: org.localDownloadsToPrivateNetwork,
  });
  const save = useMutation({
    mutationFn: () =>
      data(api.PATCH('/orgs/{orgId}', { params: { path: { orgId: org.id } }, body: form })),
    onSuccess: (saved) => {
      queryClient.setQueryData(keys.org(org.id), saved);
      void queryClient.invalidateQueries({ queryKey: keys.orgs, exact: true });
    },
  });
  const [deleting, setDeleting] = useState(false);
  return (
    <section className="narrow">
      <PageTitle lead={canUpdate ? undefined : t('settings.readOnly')}>
        {t('settings.title')}
      </PageTitle>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
        noValidate
      >
        <fieldset disabled={!canUpdate}>
          <Field
            label={t('fields.orgName')}
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            error={fieldError(save.error, 'name')}
          />
          <LocaleSelect
            value={form.locale}
            onChange={(locale) => setForm({ ...form, locale })}
            hint={t('settings.localeHint')}
          />
          <SelectField
            label={t('fields.retentionDays')}
            hint={t('settings.retentionHint')}
            value={String(form.retentionDays)}
            onChange={(e) => setForm({ ...form, retentionDays: Number(e.target.value) })}
            error={fieldError(save.error, 'retentionDays')}
          >
            {RETENTION_DAYS.map((d) => (
              <option key={d} value={d}>
                {d === 0
                  ? t('settings.retentionNone')
                  : d === 1
                    ? t('settings.retentionOneDay')
                    : t('settings.retentionDays', { days: d })}
              </option>
            ))}
          </SelectField>
          <Checkbox
            label={t('fields.requireSignature')}
            hint={t('settings.requireSignatureHint')}
            checked={form.requireSignature}
            onChange={(e) => setForm({ ...form, requireSignature: e.target.checked })}
          />
          <Checkbox
            label={t('fields.unsignedModeEnabled')}
            hint={t('settings.unsignedModeHint')}
            checked={form.unsignedModeEnabled}
            onChange={(e) => setForm({ ...form, unsignedModeEnabled: e.target.checked })}
          />
          <Checkbox
            label={t('fields.devModeEnabled')}
            hint={t('settings.devModeHint')}
            checked={form.devModeEnabled}
            onChange={(e) => setForm({ ...form, devModeEnabled: e.target.checked })}
          />
          <Checkbox
            label={t('fields.localDownloadsToPrivateNetwork')}
            hint={t('settings.localDownloadsHint')}
            checked={form.localDownloadsToPrivateNetwork}
            onChange={(e) => setForm({ ...form, localDownloadsToPrivateNetwork: e.target.checked })}
          />
        </fieldset>
        <FormError error={save.error} />
        {save.isSuccess && !save.isPending && (
          <p className="notice success" role="status">
            {t('settings.saved')}
          </p>
        )}
        {canUpdate && (
          <Button type="submit" busy={save.isPending}>
            {t('settings.submit')}
          </Button>
        )}
      </form>
      {canDelete && (
        <div className="danger-zone">
          <h2>{t('settings.deleteTitle')}</h2>
          <p>{t('settings.deleteLead')}</p>
          <Button variant="danger" onClick={() => setDeleting(true)}>
            {t('settings.deleteOpen')}
          </Button>
        </div>
      )}
      {deleting && <DeleteOrganization org={org} onClose={() => setDeleting(false)} />}
    </section>
  );
}

function DeleteOrganization({ org, onClose }: { org: Organization; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const remove = useMutation({
    mutationFn: () =>
      data(
        api.DELETE('/orgs/{orgId}', {
          params: { path: { orgId: org.id } },
          body: { confirm: typed },
        }),
      ),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: keys.org(org.id) });
      await queryClient.invalidateQueries({ queryKey: keys.orgs, exact: true });
      void navigate('/', { replace: true });
    },
  });
  return (
    <Dialog title={t('settings.deleteConfirmTitle', { name: org.name })} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          remove.mutate();
        }}
      >
        <p>{t('settings.deleteConfirm')}</p>
        <Field
          label={t('settings.typeName', { name: org.name })}
          value={typed}
          autoComplete="off"
          onChange={(e) => setTyped(e.target.value)}
          error={fieldError(remove.error, 'confirm')}
        />
        <FormError error={remove.error} />
        <div className="actions">
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="danger"
            busy={remove.isPending}
            disabled={typed !== org.name}
          >
            {t('settings.deleteSubmit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
