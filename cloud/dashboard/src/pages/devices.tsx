/** Issue 19: this page is being built (a stub wired into the router and the navigation). */
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../ui';

export function Devices() {
  const { t } = useTranslation();
  return <PageTitle>{t('nav.devices')}</PageTitle>;
}
