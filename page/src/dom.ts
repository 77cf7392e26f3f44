/// <reference lib="dom" />
// A tiny element builder: text goes in as text nodes, never as HTML, so nothing from the API can inject markup.

type Attributes = Record<string, string | number | boolean | undefined>;
export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.textContent = '';
  append(parent, children);
}

/** Moves focus to a new step's heading, so keyboard and screen-reader users land where the page changed. */
export function focusHeading(container: Element): void {
  const heading = container.querySelector<HTMLElement>('h1, h2');
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus();
}
