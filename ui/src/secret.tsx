/** A secret shown once (DESIGN.md): the value, Copy (and Download), and the sentence that says so. */
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';

export function SecretPanel({
  label,
  value,
  downloadName,
}: {
  label: string;
  value: string;
  /** Offers Download too, as a file of this name. */
  downloadName?: string;
}) {
  const { t } = useTranslation('ui');
  const copied = useRef<HTMLSpanElement>(null);
  const copy = async () => {
    await navigator.clipboard?.writeText(value).catch(() => undefined);
    if (copied.current) copied.current.textContent = t('copied');
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${value}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = downloadName ?? 'printwire.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="secret">
      <p className="secret-label">{label}</p>
      <pre tabIndex={0} aria-label={label}>
        {value}
      </pre>
      <p className="hint">{t('shownOnce')}</p>
      <div className="actions">
        <Button variant="secondary" onClick={() => void copy()}>
          {t('copy')}
        </Button>
        {downloadName && (
          <Button variant="secondary" onClick={download}>
            {t('download')}
          </Button>
        )}
        <span ref={copied} role="status" className="hint" />
      </div>
    </div>
  );
}
