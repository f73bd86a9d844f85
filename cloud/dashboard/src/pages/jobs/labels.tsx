/**
 * Labels as pictures (DESIGN.md "Look"): every label of a batch at its dots with a zoom, the ZPL
 * or EPL beside them as numbered monospace lines, the commands the pictures could not draw
 * named under them, and the renderer's warnings (where a label loses data as the printer would),
 * shown as data in its English. Used by the job page and the template editor.
 */
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../i18n';
import { Button } from '../../ui';
import './labels.css';

export function LabelPictures({
  labels,
  count,
  skipped,
  warnings = [],
  alt,
  code,
}: {
  /** data: URLs of the first labels. */
  labels: string[];
  /** How many labels the content prints. */
  count: number;
  /** Commands not drawn (`^XY`). */
  skipped: string[];
  /** The renderer's warnings, each once (English sentences, shown as they are). */
  warnings?: string[];
  /** The alt text of label n (from 1). */
  alt: (n: number) => string;
  /** The ZPL or EPL, shown beside the pictures. */
  code?: ReactNode;
}) {
  const { t } = useTranslation();
  const [real, setReal] = useState(false);
  const warningsId = useId();
  return (
    <div className="label-view">
      <figure className="preview labels">
        <div className="label-controls">
          <Button variant="secondary" onClick={() => setReal(!real)} aria-pressed={real}>
            {t('jobs.preview.realSize')}
          </Button>
          <span className="hint">{t('jobs.labels.count', { total: formatNumber(count) })}</span>
        </div>
        <ol className="label-list">
          {labels.map((src, i) => (
            <li key={i}>
              {/* Focusable: a tall label scrolls in its frame, and the keyboard must reach it. */}
              <div
                className={real ? 'preview-frame real' : 'preview-frame'}
                role="group"
                aria-label={alt(i + 1)}
                tabIndex={0}
              >
                <img src={src} alt={alt(i + 1)} />
              </div>
              <span className="hint">
                {t('jobs.labels.caption', { n: formatNumber(i + 1), total: formatNumber(count) })}
              </span>
            </li>
          ))}
        </ol>
        {count > labels.length && (
          <p className="hint">
            {t('jobs.labels.more', {
              shown: formatNumber(labels.length),
              total: formatNumber(count),
            })}
          </p>
        )}
        <figcaption>
          {skipped.length > 0 ? (
            <p className="label-skipped" role="note">
              {t('jobs.labels.skipped')} <code>{skipped.join(' ')}</code>
            </p>
          ) : (
            <p className="hint">{t('jobs.labels.allDrawn')}</p>
          )}
          {warnings.length > 0 && (
            <div className="label-warnings">
              <p id={warningsId}>{t('jobs.labels.warnings')}</p>
              <ul aria-labelledby={warningsId}>
                {warnings.map((warning) => (
                  <li key={warning} lang="en" dir="auto">
                    {warning}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </figcaption>
      </figure>
      {code && <div className="label-code">{code}</div>}
    </div>
  );
}
