/**
 * Printer groups (`/o/org_…/printer-groups`): each group with how it chooses a printer and its
 * members in order, each member's status live (the printers query, patched by the live channel).
 * New, edit and delete (after a question naming the group) for owners, admins and developers.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { queryClient, useCan } from '../../data';
import { useMode } from '../../frame';
import {
  Button,
  ConfirmDialog,
  LastData,
  LoadError,
  Loading,
  PageTitle,
  ResourceTable,
  RowAction,
} from '../../ui';
import { useOrgId } from '../organization';
import { usePrinters } from '../printers/data';
import { groupJobsPath, groupKeys, deleteGroup, useGroups, type PrinterGroup } from './data';
import { MemberList } from './members';
import { StrategyWords } from './strategy';
import './groups.css';

export { GroupEditor } from './edit';

export function PrinterGroups() {
  const { t } = useTranslation();
  const orgId = useOrgId();
  const [mode] = useMode();
  const navigate = useNavigate();
  const groups = useGroups(orgId);
  const printers = usePrinters(orgId, mode);
  const canWrite = useCan(orgId, 'printers:write');
  const [deleting, setDeleting] = useState<PrinterGroup>();
  const keep = mode === 'test' ? '?mode=test' : '';
  const page = (path = '') => `/o/${orgId}/printer-groups${path}${keep}`;
  if (groups.isError && !groups.data)
    return <LoadError error={groups.error} onRetry={() => void groups.refetch()} />;
  if (!groups.data || !printers.data) return <Loading />;
  const list = groups.data.data;
  const byId = new Map(printers.data.data.map((p) => [p.id, p]));
  return (
    <LastData query={groups}>
      <section>
        <PageTitle lead={t('groups.lead')}>{t('groups.title')}</PageTitle>
        {canWrite && list.length > 0 && (
          <div className="actions">
            <Button onClick={() => void navigate(page('/new'))}>{t('groups.new')}</Button>
          </div>
        )}
        {list.length === 0 ? (
          <div className="empty">
            <p>{t('groups.empty')}</p>
            {byId.size === 0 ? (
              <p>
                <Link to={`/o/${orgId}/printers${keep}`}>{t('groups.noPrinters')}</Link>
              </p>
            ) : (
              canWrite && (
                <div className="actions">
                  <Button onClick={() => void navigate(page('/new'))}>{t('groups.new')}</Button>
                </div>
              )
            )}
          </div>
        ) : (
          <ResourceTable
            className="groups"
            rows={list}
            rowKey={(g) => g.id}
            columns={[
              {
                header: t('groups.name'),
                cell: (g) => (
                  <div>
                    <strong dir="auto">
                      {canWrite ? <Link to={page(`/${g.id}`)}>{g.name}</Link> : g.name}
                    </strong>
                    <Link
                      className="hint block"
                      to={groupJobsPath(orgId, g.id, mode)}
                      aria-label={t('groups.jobsNamed', { name: g.name })}
                    >
                      {t('groups.jobsShort')}
                    </Link>
                  </div>
                ),
              },
              {
                header: t('groups.strategy'),
                cell: (g) => <StrategyWords strategy={g.strategy} />,
              },
              {
                header: t('groups.members.title'),
                cell: (g) => <MemberList printerIds={g.printerIds} printers={byId} />,
              },
            ]}
            actions={
              canWrite &&
              ((g) => (
                <div className="actions tight">
                  <RowAction
                    label={t('groups.edit')}
                    named={t('groups.editNamed', { name: g.name })}
                    onClick={() => void navigate(page(`/${g.id}`))}
                  />
                  <RowAction
                    variant="danger"
                    label={t('groups.delete')}
                    named={t('groups.deleteNamed', { name: g.name })}
                    onClick={() => setDeleting(g)}
                  />
                </div>
              ))
            }
          />
        )}
        {deleting && (
          <ConfirmDialog
            title={t('groups.deleteTitle', { name: deleting.name })}
            message={t('groups.deleteConfirm')}
            action={t('groups.delete')}
            run={() => deleteGroup(orgId, deleting.id)}
            onDone={() => queryClient.invalidateQueries({ queryKey: groupKeys.all(orgId) })}
            onClose={() => setDeleting(undefined)}
          />
        )}
      </section>
    </LastData>
  );
}
