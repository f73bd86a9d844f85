/**
 * Local mode on the Developers page (../shared/CONTRACT.md "Local mode"): the signing keys an
 * integrator's server signs local requests with (create: the private key shown once; revoke after
 * a question), and the exact origins whose pages may print unsigned.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, data, type Organization, type Schemas } from '../api/client';
import { keys, queryClient, useCan } from '../data';
import { formatDate } from '../i18n';
import {
  Button,
  ResourceTable,
  RowAction,
  ConfirmDialog,
  Field,
  FormError,
  LoadError,
  Loading,
  SecretPanel,
  fieldError,
} from '../ui';

type SigningKey = Schemas['SigningKey'];

const signingKeysKey = (orgId: string) => ['orgs', orgId, 'signing-keys'] as const;

const useSigningKeys = (orgId: string) =>
  useQuery({
    queryKey: signingKeysKey(orgId),
    queryFn: () => data(api.GET('/orgs/{orgId}/signing-keys', { params: { path: { orgId } } })),
  });

export function SigningKeys({ orgId }: { orgId: string }) {
  const { t } = useTranslation();
  const list = useSigningKeys(orgId);
  const canWrite = useCan(orgId, 'signingKeys:write');
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<SigningKey>();
  const active = list.data?.data.filter((k) => !k.revokedAt) ?? [];
  return (
    <section>
      <div className="toolbar">
        <h2>{t('localMode.keysTitle')}</h2>
        {canWrite && !creating && (
          <Button onClick={() => setCreating(true)}>{t('localMode.newKey')}</Button>
        )}
      </div>
      <p className="hint">{t('localMode.keysLead')}</p>
      {creating && <CreateSigningKey orgId={orgId} onDone={() => setCreating(false)} />}
      {list.isError && !list.data ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : !list.data ? (
        <Loading />
      ) : active.length === 0 ? (
        <p className="empty">{t('localMode.noKeys')}</p>
      ) : (
        <ResourceTable
          rows={active}
          rowKey={(k) => k.id}
          columns={[
            { header: t('fields.keyName'), cell: (k) => k.name },
            { header: t('localMode.keyId'), cell: (k) => <code>{k.id}</code> },
            { header: t('developers.created'), cell: (k) => formatDate(k.createdAt) },
          ]}
          actions={
            canWrite &&
            ((k) => (
              <RowAction
                label={t('developers.revoke')}
                named={t('developers.revokeNamed', { name: k.name })}
                onClick={() => setRevoking(k)}
              />
            ))
          }
        />
      )}
      {revoking && (
        <ConfirmDialog
          title={t('localMode.revokeTitle', { name: revoking.name })}
          message={t('localMode.revokeConfirm', { name: revoking.name })}
          action={t('developers.revoke')}
          run={() =>
            data(
              api.DELETE('/orgs/{orgId}/signing-keys/{id}', {
                params: { path: { orgId, id: revoking.id } },
              }),
            )
          }
          onDone={() => queryClient.invalidateQueries({ queryKey: signingKeysKey(orgId) })}
          onClose={() => setRevoking(undefined)}
        />
      )}
    </section>
  );
}

function CreateSigningKey({ orgId, onDone }: { orgId: string; onDone: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () =>
      data(api.POST('/orgs/{orgId}/signing-keys', { params: { path: { orgId } }, body: { name } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: signingKeysKey(orgId) }),
  });
  if (create.data) {
    return (
      <div className="panel">
        <h3>{t('localMode.createdTitle', { name: create.data.signingKey.name })}</h3>
        <p>{t('localMode.createdLead', { id: create.data.signingKey.id })}</p>
        <SecretPanel
          label={t('localMode.privateKey')}
          value={create.data.privateKey}
          downloadName={`printwire-signing-key-${create.data.signingKey.id}.pem`}
        />
        <div className="actions">
          <Button onClick={onDone}>{t('common.done')}</Button>
        </div>
      </div>
    );
  }
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
      noValidate
    >
      <h3>{t('localMode.newKey')}</h3>
      <Field
        label={t('fields.keyName')}
        hint={t('localMode.nameHint')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={fieldError(create.error, 'name')}
      />
      <FormError error={create.error} codes={{ CONFLICT: t('localMode.tooManyKeys') }} />
      <div className="actions">
        <Button variant="secondary" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" busy={create.isPending}>
          {t('localMode.createKey')}
        </Button>
      </div>
    </form>
  );
}

/** The origins whose pages print unsigned: one per line, each checked by the API. */
export function AllowedOrigins({ org }: { org: Organization }) {
  const { t } = useTranslation();
  const id = useId();
  const canUpdate = useCan(org.id, 'org:update');
  const [text, setText] = useState(org.allowedOrigins.join('\n'));
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const save = useMutation({
    mutationFn: () =>
      data(
        api.PATCH('/orgs/{orgId}', {
          params: { path: { orgId: org.id } },
          body: { allowedOrigins: lines },
        }),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(keys.org(org.id), saved);
      setText(saved.allowedOrigins.join('\n'));
    },
  });
  // The API names each refused origin by its place in the list: said here by its line.
  const problems = lines.flatMap((origin, i) => {
    const problem = fieldError(save.error, `allowedOrigins[${i}]`);
    return problem ? [t('localMode.originProblem', { origin, problem })] : [];
  });
  const listProblem = fieldError(save.error, 'allowedOrigins');
  const invalid = problems.length > 0 || listProblem !== undefined;
  return (
    <section>
      <h2>{t('localMode.originsTitle')}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
        noValidate
      >
        <div className="field">
          <label htmlFor={id}>{t('localMode.origins')}</label>
          <textarea
            id={id}
            rows={4}
            value={text}
            readOnly={!canUpdate}
            spellCheck={false}
            aria-invalid={invalid || undefined}
            aria-describedby={`${id}-hint ${id}-error`}
            onChange={(e) => setText(e.target.value)}
          />
          <p className="hint" id={`${id}-hint`}>
            {t('localMode.originsHint')}
          </p>
          {invalid && (
            <div className="field-error" id={`${id}-error`} role="alert">
              <ul>
                {listProblem && <li>{listProblem}</li>}
                {problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </div>
          )}
        </div>
        {save.isSuccess && (
          <p role="status" className="hint">
            {t('localMode.originsSaved')}
          </p>
        )}
        <FormError error={save.error} />
        {canUpdate && (
          <Button type="submit" busy={save.isPending}>
            {t('localMode.saveOrigins')}
          </Button>
        )}
      </form>
    </section>
  );
}
