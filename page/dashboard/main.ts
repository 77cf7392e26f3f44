/// <reference lib="dom" />
import { render } from './app';

window.addEventListener('popstate', () => void render());
void render();
