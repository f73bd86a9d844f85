/** Billing: the plan, the month's quota, how much of it is used, and when it starts again. */
import { useTranslation } from 'react-i18next';
import type { Billing as BillingData } from '../api/client';
import { useBilling } from '../data';
import { formatDate, formatNumber } from '../i18n';
import { LastData, LoadError, Loading, PageTitle } from '../ui';
import { useOrgId } from './organization';

export function Usage({ billing }: { billing: BillingData }) {
  const { t } = useTranslation();
  const quota = billing.monthlyQuota;
  return (
    <div className="usage">
      <p>
        <strong>{t(`plans.${billing.plan}`)}</strong>
        {' · '}
        {quota === null
          ? t('billing.usedUnlimited', { used: formatNumber(billing.usedThisMonth) })
          : t('billing.used', {
              used: formatNumber(billing.usedThisMonth),
              quota: formatNumber(quota),
            })}
      </p>
      {quota !== null && (
        <meter
          min={0}
          max={quota}
          value={billing.usedThisMonth}
          high={quota * 0.8}
          optimum={0}
          aria-label={t('billing.meter')}
        >
          {Math.round((billing.usedThisMonth / quota) * 100)}%
        </meter>
      )}
      <p className="hint">{t('billing.resets', { date: formatDate(billing.periodEnd, true) })}</p>
    </div>
  );
}

export function Billing() {
  const { t } = useTranslation();
  const orgId = useOrgId();
  const billing = useBilling(orgId);
  if (billing.isError && !billing.data)
    return <LoadError error={billing.error} onRetry={() => void billing.refetch()} />;
  if (!billing.data) return <Loading />;
  const b = billing.data;
  return (
    <LastData query={billing}>
      <section className="narrow">
        <PageTitle lead={t('billing.lead')}>{t('billing.title')}</PageTitle>
        <dl className="facts">
          <dt>{t('billing.plan')}</dt>
          <dd>{t(`plans.${b.plan}`)}</dd>
          <dt>{t('billing.quota')}</dt>
          <dd>
            {b.monthlyQuota === null
              ? t('billing.unlimited')
              : t('billing.jobsPerMonth', { n: formatNumber(b.monthlyQuota) })}
          </dd>
          <dt>{t('billing.usedLabel')}</dt>
          <dd>{formatNumber(b.usedThisMonth)}</dd>
          <dt>{t('billing.nextReset')}</dt>
          <dd>{formatDate(b.periodEnd, true)}</dd>
        </dl>
        <Usage billing={b} />
        <p className="hint">{t('billing.testFree')}</p>
      </section>
    </LastData>
  );
}
