/**
 * Copies a text: the async clipboard API where the page may use it, else a selected off-screen
 * textarea and execCommand('copy') (plain-HTTP pages, older browsers). Rejects when both fail.
 */
export function copyText(text: string): Promise<void> {
  const fallback = () => {
    const area = document.createElement('textarea');
    area.readOnly = true;
    area.className = 'offscreen';
    area.value = text;
    document.body.appendChild(area);
    area.select();
    let ok: boolean;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    area.remove();
    if (!ok) throw new Error('Copy is blocked in this browser: reveal the value and copy it by hand.');
  };
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text).catch(fallback);
  return Promise.resolve().then(fallback);
}
