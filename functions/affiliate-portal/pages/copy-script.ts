/**
 * The portal's one script: the links page's Copy buttons. Without it the
 * buttons stay hidden and a click on an address selects all of it (CSS
 * `user-select: all`); with it a button selects the address too, then puts it
 * on the clipboard where the browser allows, and says which in the page's live
 * region. Inline, allowed by its hash alone (render.tsx's CSP): nothing to host or cache.
 */
import { styleHash } from '../../http/html';

export const copyScript = `for (const button of document.querySelectorAll('button[data-copy]')) {
  button.hidden = false;
  button.addEventListener('click', async () => {
    const text = document.getElementById(button.dataset.copy);
    const status = document.getElementById('copy-status');
    const range = document.createRange();
    range.selectNodeContents(text);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    let copied = false;
    try { await navigator.clipboard.writeText(text.textContent); copied = true; } catch {}
    status.textContent = '';
    status.textContent = copied ? 'Copied' : 'Selected: press Ctrl+C or ⌘C to copy';
  });
}`;

/** A CSP source hashes a script as it hashes a style. */
export const copyScriptHash = styleHash(copyScript);
