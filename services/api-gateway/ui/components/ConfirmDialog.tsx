import { useEffect, useRef, useState } from 'preact/hooks';

interface Request {
  message: string;
  confirmLabel: string;
  resolve: (ok: boolean) => void;
}

let ask: ((r: Request) => void) | null = null;

/**
 * Asks before a consequential action, in the page's own modal dialog (focus moves into it, Escape
 * cancels). Resolves true on confirm. Needs <ConfirmDialog /> mounted once in the page.
 */
export function confirmAction(message: string, confirmLabel = 'Confirm'): Promise<boolean> {
  return new Promise((resolve) => {
    if (!ask) throw new Error('confirmAction: no <ConfirmDialog /> is mounted');
    ask({ message, confirmLabel, resolve });
  });
}

/** The single confirmation dialog of a page (see confirmAction). */
export function ConfirmDialog() {
  const [request, setRequest] = useState<Request | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ask = setRequest;
    return () => void (ask = null);
  }, []);
  useEffect(() => {
    if (request && !dialog.current!.open) dialog.current!.showModal();
  }, [request]);

  const answer = (ok: boolean) => {
    if (!request) return;
    request.resolve(ok);
    setRequest(null);
    if (dialog.current!.open) dialog.current!.close();
  };
  return (
    <dialog
      id="confirm"
      ref={dialog}
      aria-labelledby="confirm-message"
      onCancel={(e) => {
        e.preventDefault();
        answer(false);
      }}
    >
      <p id="confirm-message">{request?.message}</p>
      <div class="toolbar">
        <button type="button" class="primary" autofocus onClick={() => answer(true)}>
          {request?.confirmLabel ?? 'Confirm'}
        </button>
        <button type="button" onClick={() => answer(false)}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
