/** A time relative and exact (DESIGN.md): "2 min ago", with the date and hour beside it. */
import { formatDate, formatRelative } from '../i18n';
import './shown-time.css';

export function ShownTime({ iso, stacked = false }: { iso: string; stacked?: boolean }) {
  const exact = formatDate(iso, true);
  return (
    <time dateTime={iso} title={exact} className={stacked ? 'shown-time stacked' : 'shown-time'}>
      {formatRelative(iso)}
      {stacked && <span className="hint">{exact}</span>}
    </time>
  );
}
