/**
 * What a job was asked to print (DESIGN.md "Look"): receipt JSON pretty-printed, ZPL, EPL and
 * text as monospace lines with their numbers, bytes as a hex dump with offsets and the ASCII
 * column, and the sandbox's picture at its real pixel width with a zoom.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../i18n';
import { Button } from '../../ui';
import type { JobContent } from './data';

/** Most bytes the hex dump shows (the rest is counted, not drawn). */
export const HEX_DUMP_LIMIT = 64 * 1024;
/** Most lines a text shows. */
const LINE_LIMIT = 5_000;

/** Rows of 16 bytes: offset, the bytes in hex, and the printable ASCII (others as '.'). */
export function hexDumpRows(bytes: Uint8Array, limit = HEX_DUMP_LIMIT): string[] {
  const rows: string[] = [];
  const end = Math.min(bytes.length, limit);
  for (let offset = 0; offset < end; offset += 16) {
    const chunk = bytes.subarray(offset, Math.min(offset + 16, end));
    let hex = '';
    let ascii = '';
    for (let i = 0; i < 16; i++) {
      if (i === 8) hex += ' ';
      if (i < chunk.length) {
        const b = chunk[i]!;
        hex += `${b.toString(16).padStart(2, '0')} `;
        ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
      } else {
        hex += '   ';
      }
    }
    rows.push(`${offset.toString(16).padStart(8, '0')}  ${hex} |${ascii}|`);
  }
  return rows;
}

function HexDump({ bytes }: { bytes: Uint8Array }) {
  const { t } = useTranslation();
  return (
    <>
      <pre className="hexdump" tabIndex={0} aria-label={t('jobs.content.hexLabel')}>
        {hexDumpRows(bytes).join('\n')}
      </pre>
      {bytes.length > HEX_DUMP_LIMIT && (
        <p className="hint">
          {t('jobs.content.truncated', {
            shown: formatNumber(HEX_DUMP_LIMIT),
            total: formatNumber(bytes.length),
          })}
        </p>
      )}
    </>
  );
}

function Lines({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return (
    <>
      <ol className="code-lines" tabIndex={0} aria-label={label}>
        {lines.slice(0, LINE_LIMIT).map((line, i) => (
          <li key={i}>
            <code>{line || ' '}</code>
          </li>
        ))}
      </ol>
      {lines.length > LINE_LIMIT && (
        <p className="hint">{t('jobs.content.moreLines', { count: lines.length - LINE_LIMIT })}</p>
      )}
    </>
  );
}

export function ContentView({ type, content }: { type: string; content: JobContent }) {
  const { t } = useTranslation();
  if (content.kind === 'bytes') return <HexDump bytes={content.bytes} />;
  if (type === 'receipt') {
    let pretty = content.text;
    try {
      pretty = JSON.stringify(JSON.parse(content.text), null, 2);
    } catch {
      // Shown as it is.
    }
    return <Lines text={pretty} label={t('jobs.content.receiptLabel')} />;
  }
  return <Lines text={content.text} label={t('jobs.content.textLabel', { type })} />;
}

/** The sandbox's picture at its real pixel width (576 or 384 dots), or fitted to the screen. */
export function Preview({ src, alt }: { src: string; alt: string }) {
  const { t } = useTranslation();
  const [real, setReal] = useState(false);
  return (
    <figure className="preview">
      <div className={real ? 'preview-frame real' : 'preview-frame'}>
        <img src={src} alt={alt} />
      </div>
      <figcaption>
        <Button variant="secondary" onClick={() => setReal(!real)} aria-pressed={real}>
          {t('jobs.preview.realSize')}
        </Button>
      </figcaption>
    </figure>
  );
}
