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

/** A state in a word and an icon beside it (never by colour alone). */
export function StateBadge({
  tone,
  children,
}: {
  tone: 'ok' | 'off' | 'bad' | 'wait';
  children: string;
}) {
  const paths: Record<typeof tone, string> = {
    ok: 'M3 8.5l3 3 7-7',
    off: 'M4 8h8',
    bad: 'M4 4l8 8M12 4l-8 8',
    wait: 'M8 3v5l3 2',
  };
  return (
    <span className={`state ${tone}`}>
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
        <path d={paths[tone]} fill="none" stroke="currentColor" strokeWidth="2.2" />
      </svg>
      {children}
    </span>
  );
}
