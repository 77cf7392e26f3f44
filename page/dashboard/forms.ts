/// <reference lib="dom" />
// Labelled form fields and one submit path: the button is disabled while the request runs, and a refusal
// is shown in an alert region next to the form with every validation problem listed.
import { h, replaceChildren, type Child } from '../src/dom';
import { ApiFailure } from './api';

export function field(label: string, input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, hint?: string): HTMLElement {
  const id = input.id || `f-${Math.random().toString(36).slice(2, 9)}`;
  input.id = id;
  const hintEl = hint ? h('span', { class: 'hint', id: `${id}-hint` }, hint) : null;
  if (hintEl) input.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, hintEl);
}

export const input = (attributes: Record<string, string | boolean>) => h('input', attributes);

export function form(options: {
  label: string;
  submit: string;
  fields: Child[];
  onSubmit: (data: FormData) => Promise<void>;
}): HTMLFormElement {
  const status = h('div', { class: 'form-status', role: 'alert' });
  const button = h('button', { type: 'submit' }, options.submit);
  const element = h(
    'form',
    { 'aria-label': options.label, novalidate: true },
    ...options.fields,
    h('div', { class: 'actions' }, button),
    status,
  );
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    button.disabled = true;
    replaceChildren(status);
    options
      .onSubmit(new FormData(element))
      .catch((error: unknown) => showError(status, error))
      .finally(() => (button.disabled = false));
  });
  return element;
}

export function showError(target: Element, error: unknown): void {
  const message = error instanceof Error ? error.message : 'Something went wrong';
  const problems = error instanceof ApiFailure ? error.problems : [];
  replaceChildren(
    target,
    h('p', { class: 'error' }, message),
    problems.length > 0 ? h('ul', { class: 'error' }, ...problems.map((p) => h('li', {}, p))) : null,
  );
}

export const text = (data: FormData, name: string): string => String(data.get(name) ?? '').trim();
