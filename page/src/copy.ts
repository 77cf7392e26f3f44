/// <reference lib="dom" />
// A labelled value with a copy button. The value is selectable text as well, for when the clipboard API is
// refused; the outcome is announced to screen readers through the button's own live region.
import { h } from './dom';

export function copyableField(label: string, value: string, options: { emphasis?: boolean; id?: string } = {}): HTMLElement {
  const valueId = options.id ?? `value-${Math.random().toString(36).slice(2, 9)}`;
  const feedback = h('span', { class: 'copy-feedback', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', class: 'copy', 'aria-describedby': valueId }, `Copy ${inSentence(label)}`);
  button.addEventListener('click', () => {
    void copyText(value).then((copied) => {
      feedback.textContent = copied ? 'Copied' : 'Select the text and copy it';
      window.setTimeout(() => (feedback.textContent = ''), 2500);
    });
  });
  return h(
    'div',
    { class: options.emphasis ? 'field field-emphasis' : 'field' },
    h('dt', {}, label),
    h('dd', {}, h('code', { id: valueId, class: 'value' }, value), h('span', { class: 'field-actions' }, button, feedback)),
  );
}

/** "Account name" → "account name", while acronyms such as IBAN and USDC keep their capitals. */
const inSentence = (label: string) => label.replace(/\b[A-Z][a-z]+\b/g, (word) => word.toLowerCase());

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
