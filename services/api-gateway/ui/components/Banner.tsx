/** A banner that stays until replaced: an error (alert) or a notice (status). */
export function Banner({ id, kind, message }: { id: string; kind: 'error' | 'notice'; message: string }) {
  return (
    <div id={id} class={`banner ${kind}`} role={kind === 'error' ? 'alert' : 'status'} hidden={!message}>
      {message}
    </div>
  );
}
