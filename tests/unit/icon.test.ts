// The app's icons (app/components/icons.ts) must render what lucide-react's
// components render, attribute for attribute: decorative ones hidden from
// screen readers, labelled ones not. A lucide upgrade that changes how its
// data is reached fails here rather than on a page.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import * as lucide from 'lucide-react';
import { describe, expect, it } from 'vitest';
import * as icons from '../../app/components/icons.ts';

/** The svg's attributes as a sorted list, and what is inside it. */
function parts(html: string) {
  const match = /^<svg([^>]*)>(.*)<\/svg>$/s.exec(html);
  if (!match) throw new Error(`not an svg: ${html}`);
  const attributes = [...match[1].matchAll(/ ([\w:-]+)="([^"]*)"/g)].map(([, name, value]) => `${name}=${value}`).sort();
  return { attributes, inner: match[2] };
}

const named = Object.entries(icons).filter(([, value]) => typeof value === 'function') as [string, icons.IconComponent][];
const cases = [
  {},
  { className: 'size-4 text-muted-foreground' },
  { 'aria-hidden': 'true' as const, className: 'size-4' },
  { 'aria-label': 'Loading', role: 'img' },
];

describe('icons', () => {
  it('covers the icons the app uses', () => {
    expect(named.length).toBeGreaterThan(50);
  });

  for (const [name, Icon] of named) {
    it(`${name} renders as lucide-react's does`, () => {
      const Lucide = (lucide as unknown as Record<string, icons.IconComponent>)[name];
      expect(Lucide).toBeTypeOf('object'); // lucide's forwardRef: the fast path was taken, not the fallback
      expect(Icon).not.toBe(Lucide);
      for (const props of cases) {
        const ours = parts(renderToStaticMarkup(createElement(Icon, props)));
        const theirs = parts(renderToStaticMarkup(createElement(Lucide, props)));
        expect(ours).toEqual(theirs);
      }
    });
  }

  it('hides a decorative icon and leaves a labelled one to be read', () => {
    expect(renderToStaticMarkup(createElement(icons.Plus, { className: 'size-4' }))).toContain('aria-hidden="true"');
    expect(renderToStaticMarkup(createElement(icons.Plus, { 'aria-label': 'Add' }))).not.toContain('aria-hidden');
  });
});
