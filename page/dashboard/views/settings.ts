/// <reference lib="dom" />
import { h } from '../../src/dom';
import type { Me, View } from '../types';

export function settingsView(me: Me): View {
  return { name: 'settings', title: 'Settings', element: h('div', {}, h('h1', {}, `Settings of ${me.merchant.name}`)) };
}
