/**
 * The template text drawn under a transparent textarea: mustache tags highlighted (variables,
 * sections, comments), and the line an error names marked. Pure drawing, no editor dependency.
 */
import { Fragment, type ReactNode } from 'react';

const TAG = /(\{\{\{[\s\S]*?\}\}\}|\{\{[\s\S]*?\}\})/;

function tagClass(tag: string): string {
  const sigil = tag.startsWith('{{{') ? '' : tag.charAt(2);
  if (sigil === '!') return 'tag-comment';
  if (sigil === '#' || sigil === '^' || sigil === '/') return 'tag-section';
  return 'tag-var';
}

/** One line's pieces: plain text and highlighted tags. */
export function highlightLine(line: string): ReactNode[] {
  return line.split(TAG).map((piece, i) =>
    i % 2 === 1 ? (
      <span key={i} className={tagClass(piece)}>
        {piece}
      </span>
    ) : (
      <Fragment key={i}>{piece}</Fragment>
    ),
  );
}

export function Highlighted({ content, errorLine }: { content: string; errorLine?: number }) {
  const lines = content.split('\n');
  return (
    <>
      {lines.map((line, i) => (
        <span key={i} className={i + 1 === errorLine ? 'line error-line' : 'line'}>
          {highlightLine(line)}
          {'\n'}
        </span>
      ))}
      {/* A last empty line keeps the drawing as tall as the textarea after a final newline. */}{' '}
    </>
  );
}

/** "content: line 3, column 5: …" → its parts (the API's template errors name both). */
export function parsePosition(
  message: string,
): { line: number; column: number; inOutput: boolean; reason: string } | undefined {
  const m = /(rendered output )?line (\d+), column (\d+): ([\s\S]*)$/.exec(message);
  if (!m) return undefined;
  return { inOutput: m[1] !== undefined, line: Number(m[2]), column: Number(m[3]), reason: m[4]! };
}
