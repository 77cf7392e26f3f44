/// <reference lib="dom" />
import { h } from '../../src/dom';
import type { Mode, View } from '../types';

export function sessionDetailView(mode: Mode, id: string): View {
  return { name: 'session', title: id, element: h('div', {}, h('h1', {}, `${id} (${mode})`)) };
}
