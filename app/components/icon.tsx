import type * as React from 'react';
import type { LucideIcon } from 'lucide-react';

// lucide-react's icon component re-derives its attributes on every render
// (two forwardRefs, a context read, object spreads, class merging) and React
// then writes each path as an element of its own: 5–10% of a signed-in
// page's CPU in the Worker, ~30 icons a page (decision 034). This renders the
// same markup from the same icon data, worked out once per icon: the <svg>
// with its attributes, and its paths as one precomputed string.

export type IconProps = Omit<React.SVGProps<SVGSVGElement>, 'ref' | 'children' | 'dangerouslySetInnerHTML'>;
export type IconComponent = (props: IconProps) => React.ReactElement;

interface IconData {
  name?: string;
  aliases?: string[];
  node: [string, Record<string, string | number>][];
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };
const escape = (value: string) => value.replace(/[&"<>]/g, (char) => ESCAPES[char]);

function innerMarkup(node: IconData['node']): string {
  let html = '';
  for (const [tag, attributes] of node) {
    html += `<${tag}`;
    for (const [name, value] of Object.entries(attributes)) if (name !== 'key') html += ` ${name}="${escape(String(value))}"`;
    html += `></${tag}>`;
  }
  return html;
}

/** lucide's own data for the icon: its forwardRef passes it to `Icon` as `icon`. */
function dataOf(lucide: LucideIcon): IconData | undefined {
  const render = (lucide as unknown as { render?: (props: object, ref: null) => { props?: { icon?: IconData } } }).render;
  const data = render?.({}, null)?.props?.icon;
  return data && Array.isArray(data.node) ? data : undefined;
}

function hasAccessibleProp(props: IconProps): boolean {
  for (const name in props) {
    if ((name.startsWith('aria-') || name === 'role' || name === 'title') && props[name as keyof IconProps] != null) return true;
  }
  return false;
}

/**
 * The icon as a plain component. Decorative unless given an aria-* prop, a
 * role or a title, as lucide's: `aria-hidden="true"` otherwise. Falls back to
 * lucide's component if its data cannot be read (tests/unit/icon.test.ts
 * compares the two for every icon the app uses).
 */
export function icon(lucide: LucideIcon): IconComponent {
  const data = dataOf(lucide);
  if (!data) return lucide as unknown as IconComponent;
  const names = [data.name, ...(data.aliases ?? [])].filter((name): name is string => typeof name === 'string' && name.trim() !== '');
  const baseClass = ['lucide', ...names.map((name) => `lucide-${name}`)].join(' ');
  const inner = { __html: innerMarkup(data.node) };
  function Icon({ className, ...rest }: IconProps) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={24}
        height={24}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        className={className ? `${baseClass} ${className}` : baseClass}
        aria-hidden={hasAccessibleProp(rest) ? undefined : 'true'}
        {...rest}
        dangerouslySetInnerHTML={inner}
      />
    );
  }
  return Icon;
}
