/** Status in a word and an icon (never by colour alone, DESIGN.md); the colours keep 4.5:1. */
import type { ReactNode } from 'react';

export type Tone = 'ok' | 'warn' | 'bad' | 'neutral';

const PATHS: Record<Tone, string> = {
  ok: 'M3 8.5l3 3 7-7',
  warn: 'M8 3v6M8 12v1',
  bad: 'M4 4l8 8M12 4l-8 8',
  neutral: 'M8 8h.01',
};

/** The icon of a tone: a tick, an exclamation mark, a cross, a dot. */
export function ToneIcon({ tone }: { tone: Tone }) {
  return (
    <svg aria-hidden="true" focusable="false" width="14" height="14" viewBox="0 0 16 16">
      <path
        d={PATHS[tone]}
        fill="none"
        stroke="currentColor"
        strokeWidth="2.2"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** A status: its word with the tone's icon and colour ("Online", "Paper out"). */
export function StatusBadge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <span className={`status status-${tone}`}>
      <ToneIcon tone={tone} />
      {children}
    </span>
  );
}
