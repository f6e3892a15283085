import type { ComponentChildren } from 'preact';
import { navigate } from './location';

interface Props {
  href: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page' | 'true';
}

/** An in-console link: followed without a reload (a modified click still opens a new tab). */
export function Link({ href, children, ...rest }: Props) {
  return (
    <a
      {...rest}
      href={href}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}
