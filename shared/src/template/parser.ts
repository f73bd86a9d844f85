/**
 * Builds the section tree from tokens and checks it: every section closed, closes matching their
 * opens, nesting within the depth limit.
 */
import { TemplateError, positionAt } from './errors.js';
import type { Token } from './lexer.js';

export interface TextNode {
  kind: 'text';
  text: string;
  offset: number;
}

export interface ValueNode {
  kind: 'value';
  name: string;
  /** `{{{name}}}` or `{{& name}}`: inserted without escaping. */
  raw: boolean;
  offset: number;
}

export interface SectionNode {
  kind: 'section';
  name: string;
  inverted: boolean;
  offset: number;
  children: TemplateNode[];
}

export type TemplateNode = TextNode | ValueNode | SectionNode;

/** Parses tokens into nodes; `maxDepth` bounds section nesting. */
export function parse(source: string, tokens: Token[], maxDepth: number): TemplateNode[] {
  const root: TemplateNode[] = [];
  const open: SectionNode[] = [];
  let children = root;
  for (const token of tokens) {
    switch (token.kind) {
      case 'text':
        children.push({ kind: 'text', text: token.text, offset: token.offset });
        break;
      case 'var':
      case 'raw':
        children.push({
          kind: 'value',
          name: token.name,
          raw: token.kind === 'raw',
          offset: token.offset,
        });
        break;
      case 'comment':
        break;
      case 'open':
      case 'inverted': {
        if (open.length >= maxDepth) {
          throw new TemplateError(
            `sections nested deeper than ${maxDepth} levels (section "${token.name}")`,
            positionAt(source, token.offset),
          );
        }
        const section: SectionNode = {
          kind: 'section',
          name: token.name,
          inverted: token.kind === 'inverted',
          offset: token.offset,
          children: [],
        };
        children.push(section);
        open.push(section);
        children = section.children;
        break;
      }
      case 'close': {
        const current = open.pop();
        if (current === undefined) {
          throw new TemplateError(
            `unexpected close "{{/${token.name}}}": no section is open`,
            positionAt(source, token.offset),
          );
        }
        if (current.name !== token.name) {
          const at = positionAt(source, current.offset);
          throw new TemplateError(
            `mismatched close "{{/${token.name}}}": section "${current.name}" opened at line ${at.line}, column ${at.column} is still open`,
            positionAt(source, token.offset),
          );
        }
        children = open.length === 0 ? root : open[open.length - 1]!.children;
        break;
      }
    }
  }
  const unclosed = open[open.length - 1];
  if (unclosed !== undefined) {
    throw new TemplateError(
      `unclosed section "${unclosed.name}"`,
      positionAt(source, unclosed.offset),
    );
  }
  return root;
}
