/** A page's title (also the document's) and the loading line. */
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The h1 and its lead; a string title also names the browser tab ("Jobs · Printwire"). */
export function PageTitle({
  children,
  lead,
  site = 'Printwire',
}: {
  children: ReactNode;
  lead?: ReactNode;
  /** What follows the title in the tab. */
  site?: string;
}) {
  useEffect(() => {
    if (typeof children === 'string') document.title = `${children} · ${site}`;
  }, [children, site]);
  return (
    <header className="page-title">
      <h1>{children}</h1>
      {lead && <p className="lead">{lead}</p>}
    </header>
  );
}

export function Loading() {
  const { t } = useTranslation('ui');
  return (
    <p className="loading" role="status">
      {t('loading')}
    </p>
  );
}
