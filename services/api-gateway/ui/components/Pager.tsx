/** Where a pager button leads: a link (the console keeps paging in the URL) or a click handler. */
type PageTarget = { href: string } | { onClick: () => void };

interface Props {
  newer?: PageTarget;
  older?: PageTarget;
  /** Navigates a link without reloading the page. */
  onNavigate?: (href: string) => void;
  newerLabel?: string;
  olderLabel?: string;
}

function PageControl(props: {
  id: string;
  rel: string;
  label: string;
  target?: PageTarget;
  onNavigate?: (href: string) => void;
}) {
  const { id, rel, label, target, onNavigate } = props;
  if (target && 'href' in target)
    return (
      <a
        id={id}
        rel={rel}
        href={target.href}
        onClick={(e) => {
          if (!onNavigate || e.metaKey || e.ctrlKey || e.shiftKey) return;
          e.preventDefault();
          onNavigate(target.href);
        }}
      >
        {label}
      </a>
    );
  return (
    <button id={id} type="button" hidden={!target} onClick={target?.onClick}>
      {label}
    </button>
  );
}

/** Cursor paging: newer and older pages; a missing direction is not offered. */
export function Pager({ newer, older, onNavigate, newerLabel = '← Newer', olderLabel = 'Older →' }: Props) {
  return (
    <nav class="pager" aria-label="Pages">
      <PageControl id="newer" rel="prev" label={newerLabel} target={newer} onNavigate={onNavigate} />
      <PageControl id="older" rel="next" label={olderLabel} target={older} onNavigate={onNavigate} />
    </nav>
  );
}
