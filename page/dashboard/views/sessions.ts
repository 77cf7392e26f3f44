/// <reference lib="dom" />
import { h } from '../../src/dom';
import type { Mode, View } from '../types';

export function sessionsView(mode: Mode): View {
  return { name: 'sessions', title: 'Sessions', element: h('div', {}, h('h1', {}, `Sessions (${mode})`)) };
}
