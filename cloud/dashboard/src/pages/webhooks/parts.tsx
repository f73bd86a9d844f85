/** Pieces the webhook page's parts share: the events to subscribe, a query's load error. */
import { useTranslation } from 'react-i18next';
import { Checkbox, LoadError } from '../../ui';
import { EVENTS, type WebhookEvent } from './data';

export function EventChoice({
  value,
  onChange,
  error,
}: {
  value: WebhookEvent[];
  onChange: (events: WebhookEvent[]) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <fieldset>
      <legend>{t('webhooks.events')}</legend>
      <p className="hint">{t('webhooks.eventsHint')}</p>
      <div className="event-grid">
        {EVENTS.map((e) => (
          <Checkbox
            key={e}
            label={e}
            checked={value.includes(e)}
            onChange={(ev) =>
              onChange(
                ev.target.checked
                  ? EVENTS.filter((x) => x === e || value.includes(x))
                  : value.filter((x) => x !== e),
              )
            }
          />
        ))}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The load error of a query that is not the page's own (deliveries, alerts). */
export function QueryError({ query }: { query: { error: unknown; refetch: () => unknown } }) {
  return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
}
