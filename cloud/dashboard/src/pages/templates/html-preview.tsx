/**
 * An HTML template's output in a sandboxed frame that runs no script. A srcdoc frame inherits the
 * dashboard's Content-Security-Policy, which refuses inline styles (`style-src 'self'`), and an
 * HTML template is mostly inline styles. So the styles are taken out of the markup here and given
 * to the frame's document through the CSSOM (a constructed style sheet, element.style), which the
 * policy does not govern: the page looks as it prints, and the dashboard's policy stays strict.
 * The frame allows same-origin access for that (only this page's code reaches in: the sandbox
 * runs no script of the template's).
 */
import { useMemo, useRef } from 'react';

const MARK = 'data-printwire-style';
const CSS_ATTR = 'data-printwire-css';

interface SplitHtml {
  markup: string;
  css: string;
  inline: string[];
}

/** The markup without styles, its style sheets' text, and each element's style attribute. */
export function splitStyles(html: string): SplitHtml {
  // Style elements and attributes are taken out before parsing: Chromium checks them against the
  // policy even in a parsed document that shows nothing. A style element's text cannot hold
  // "</style>"; a style attribute is renamed in its tag (a ">" inside an earlier quoted value
  // of the same tag can hide it: that element then shows unstyled).
  const css: string[] = [];
  const rest = html
    .replace(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi, (_, text: string) => {
      css.push(text);
      return '';
    })
    .replace(/(<[a-z][^<>]*?\s)style(\s*=)/gi, `$1${CSS_ATTR}$2`);
  // A parsed document has no browsing context: nothing in it is loaded or run.
  const doc = new DOMParser().parseFromString(rest, 'text/html');
  for (const node of Array.from(doc.querySelectorAll('script, link[rel~="stylesheet"]'))) {
    node.remove();
  }
  for (const el of Array.from(doc.querySelectorAll('[style]'))) el.removeAttribute('style');
  const inline: string[] = [];
  for (const el of Array.from(doc.querySelectorAll(`[${CSS_ATTR}]`))) {
    el.setAttribute(MARK, String(inline.push(el.getAttribute(CSS_ATTR) ?? '') - 1));
    el.removeAttribute(CSS_ATTR);
  }
  return { markup: `<!doctype html>${doc.documentElement.outerHTML}`, css: css.join('\n'), inline };
}

export function HtmlPreview({ html, title }: { html: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const split = useMemo(() => splitStyles(html), [html]);
  const applyStyles = () => {
    const doc = frame.current?.contentDocument;
    const win = frame.current?.contentWindow as (Window & typeof globalThis) | null | undefined;
    if (!doc || !win) return;
    const sheet = new win.CSSStyleSheet();
    try {
      sheet.replaceSync(split.css);
    } catch {
      // a style sheet the browser cannot read: the page shows unstyled
    }
    doc.adoptedStyleSheets = [sheet];
    for (const el of Array.from(doc.querySelectorAll<HTMLElement>(`[${MARK}]`))) {
      el.style.cssText = split.inline[Number(el.getAttribute(MARK))] ?? '';
      el.removeAttribute(MARK);
    }
  };
  return (
    <iframe
      ref={frame}
      className="html-preview"
      title={title}
      sandbox="allow-same-origin"
      srcDoc={split.markup}
      onLoad={applyStyles}
    />
  );
}
