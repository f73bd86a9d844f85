/** Members (roles, change, remove; the last owner protected) and invitations (send, list, revoke). */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, data, type Invitation, type Member } from '../api/client';
import { keys, queryClient, useAccess, useCan, useInvitations, useMembers } from '../data';
import { formatDate, formatRelative } from '../i18n';
import { useSession } from '../session';
import {
  Button,
  ResourceTable,
  RowAction,
  Field,
  FormError,
  LastData,
  LoadError,
  Loading,
  PageTitle,
  SelectField,
  fieldError,
  ConfirmDialog,
} from '../ui';
import { useOrgId } from './organization';

type Role = Member['role'];
const ROLES: Role[] = ['owner', 'admin', 'developer', 'viewer'];

export function Members() {
  const { t } = useTranslation();
  const orgId = useOrgId();
  const members = useMembers(orgId);
  const canInvite = useCan(orgId, 'invitations:manage');
  const canReadInvitations = useCan(orgId, 'invitations:read');
  if (members.isError && !members.data)
    return <LoadError error={members.error} onRetry={() => void members.refetch()} />;
  if (!members.data) return <Loading />;
  return (
    <LastData query={members}>
      <section>
        <PageTitle lead={t('members.lead')}>{t('members.title')}</PageTitle>
        <MemberTable orgId={orgId} members={members.data.data} />
        {canInvite && <InviteForm orgId={orgId} />}
        {canReadInvitations && <Invitations orgId={orgId} canRevoke={canInvite} />}
      </section>
    </LastData>
  );
}

function MemberTable({ orgId, members }: { orgId: string; members: Member[] }) {
  const { t } = useTranslation();
  const session = useSession();
  const me = session.status === 'signed-in' ? session.user.id : '';
  const myRole = useAccess(orgId).data?.role;
  const canManage = useCan(orgId, 'members:manage');
  const canManageOwners = useCan(orgId, 'owners:manage');
  const owners = members.filter((m) => m.role === 'owner').length;
  const lastOwner = (m: Member) => m.role === 'owner' && owners === 1;
  // An admin may not touch owners nor make one (owners:manage).
  const editable = (m: Member) =>
    canManage && !lastOwner(m) && (m.role !== 'owner' || canManageOwners);
  const [removing, setRemoving] = useState<Member>();
  const change = useMutation({
    mutationFn: (v: { userId: string; role: Role }) =>
      data(
        api.PATCH('/orgs/{orgId}/members/{userId}', {
          params: { path: { orgId, userId: v.userId } },
          body: { role: v.role },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.members(orgId) }),
  });
  return (
    <>
      <ResourceTable
        rows={members}
        rowKey={(m) => m.userId}
        columns={[
          {
            header: t('fields.name'),
            cell: (m) => (
              <div>
                {m.name}
                {m.userId === me && <span className="badge">{t('members.you')}</span>}
              </div>
            ),
          },
          { header: t('fields.email'), cell: (m) => m.email },
          {
            header: t('fields.role'),
            cell: (m) =>
              editable(m) ? (
                <select
                  aria-label={t('members.roleOf', { name: m.name })}
                  value={m.role}
                  disabled={change.isPending}
                  onChange={(e) =>
                    change.mutate({ userId: m.userId, role: e.target.value as Role })
                  }
                >
                  {ROLES.filter((r) => r !== 'owner' || canManageOwners).map((r) => (
                    <option key={r} value={r}>
                      {t(`roles.${r}`)}
                    </option>
                  ))}
                </select>
              ) : (
                <div>
                  {t(`roles.${m.role}`)}
                  {lastOwner(m) && <span className="hint block">{t('members.lastOwner')}</span>}
                </div>
              ),
          },
          { header: t('members.joined'), cell: (m) => formatDate(m.joinedAt) },
        ]}
        actions={
          canManage &&
          ((m) =>
            editable(m) &&
            m.userId !== me && (
              <Button variant="secondary" onClick={() => setRemoving(m)}>
                {t('members.remove')}
              </Button>
            ))
        }
      />
      <FormError error={change.error} codes={{ CONFLICT: t('members.lastOwner') }} />
      {myRole === 'viewer' && <p className="hint">{t('members.viewerNote')}</p>}
      {removing && (
        <RemoveMember orgId={orgId} member={removing} onClose={() => setRemoving(undefined)} />
      )}
    </>
  );
}

function RemoveMember({
  orgId,
  member,
  onClose,
}: {
  orgId: string;
  member: Member;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      title={t('members.removeTitle', { name: member.name })}
      message={t('members.removeConfirm', { name: member.name })}
      action={t('members.remove')}
      run={() =>
        data(
          api.DELETE('/orgs/{orgId}/members/{userId}', {
            params: { path: { orgId, userId: member.userId } },
          }),
        )
      }
      onDone={() => queryClient.invalidateQueries({ queryKey: keys.members(orgId) })}
      onClose={onClose}
      codes={{ CONFLICT: t('members.lastOwner') }}
    />
  );
}

function InviteForm({ orgId }: { orgId: string }) {
  const { t } = useTranslation();
  const canManageOwners = useCan(orgId, 'owners:manage');
  const [form, setForm] = useState<{ email: string; role: Role }>({ email: '', role: 'developer' });
  const invite = useMutation({
    mutationFn: () =>
      data(api.POST('/orgs/{orgId}/invitations', { params: { path: { orgId } }, body: form })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.invitations(orgId) });
      setForm({ ...form, email: '' });
    },
  });
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        invite.mutate();
      }}
      noValidate
    >
      <h2>{t('members.inviteTitle')}</h2>
      <div className="row">
        <Field
          label={t('fields.email')}
          type="email"
          value={form.email}
          onChange={(e) => setForm({ ...form, email: e.target.value })}
          error={fieldError(invite.error, 'email')}
        />
        <SelectField
          label={t('fields.role')}
          value={form.role}
          onChange={(e) => setForm({ ...form, role: e.target.value as Role })}
        >
          {ROLES.filter((r) => r !== 'owner' || canManageOwners).map((r) => (
            <option key={r} value={r}>
              {t(`roles.${r}`)}
            </option>
          ))}
        </SelectField>
      </div>
      <p className="hint">{t(`roleHints.${form.role}`)}</p>
      <FormError error={invite.error} codes={{ CONFLICT: t('members.alreadyMember') }} />
      {invite.isSuccess && (
        <p className="notice success" role="status">
          {t('members.invited', { email: invite.data.email })}
        </p>
      )}
      <Button type="submit" busy={invite.isPending}>
        {t('members.inviteSubmit')}
      </Button>
    </form>
  );
}

function Invitations({ orgId, canRevoke }: { orgId: string; canRevoke: boolean }) {
  const { t } = useTranslation();
  const invitations = useInvitations(orgId, true);
  const [revoking, setRevoking] = useState<Invitation>();
  if (invitations.isError && !invitations.data)
    return <LoadError error={invitations.error} onRetry={() => void invitations.refetch()} />;
  const list = invitations.data?.data ?? [];
  return (
    <LastData query={invitations}>
      <>
        <h2>{t('members.invitationsTitle')}</h2>
        {list.length === 0 ? (
          <p className="empty">{t('members.noInvitations')}</p>
        ) : (
          <ResourceTable
            rows={list}
            rowKey={(i) => i.id}
            columns={[
              { header: t('fields.email'), cell: (i) => i.email },
              { header: t('fields.role'), cell: (i) => t(`roles.${i.role}`) },
              {
                header: t('members.expires'),
                cell: (i) => (
                  <time dateTime={i.expiresAt} title={formatDate(i.expiresAt, true)}>
                    {formatRelative(i.expiresAt)}
                  </time>
                ),
              },
            ]}
            actions={
              canRevoke &&
              ((i) => (
                <RowAction
                  label={t('members.revoke')}
                  named={t('members.revokeNamed', { email: i.email })}
                  onClick={() => setRevoking(i)}
                />
              ))
            }
          />
        )}
        {revoking && (
          <RevokeInvitation
            orgId={orgId}
            invitation={revoking}
            onClose={() => setRevoking(undefined)}
          />
        )}
      </>
    </LastData>
  );
}

function RevokeInvitation({
  orgId,
  invitation,
  onClose,
}: {
  orgId: string;
  invitation: Invitation;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      title={t('members.revokeTitle', { email: invitation.email })}
      message={t('members.revokeConfirm', { email: invitation.email })}
      action={t('members.revoke')}
      run={() =>
        data(
          api.DELETE('/orgs/{orgId}/invitations/{id}', {
            params: { path: { orgId, id: invitation.id } },
          }),
        )
      }
      onDone={() => queryClient.invalidateQueries({ queryKey: keys.invitations(orgId) })}
      onClose={onClose}
    />
  );
}
