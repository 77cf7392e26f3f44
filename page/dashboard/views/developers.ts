/// <reference lib="dom" />
// API keys of the current mode (create: shown once with a copy button; revoke; IP allowlist) and the
// webhook signing secret (rotate with an overlap).
import { copyableField } from '../../src/copy';
import { h, replaceChildren } from '../../src/dom';
import { api } from '../api';
import { field, form, input, showError, text } from '../forms';
import type { ApiKeyRow, Mode, View } from '../types';

export function developersView(mode: Mode): View {
  const keysArea = h('div', { class: 'keys' }, h('p', {}, 'Loading keys…'));
  const created = h('div', { class: 'created', 'aria-live': 'polite' });
  const secretArea = h('div', { class: 'created', 'aria-live': 'polite' });

  const refresh = async () => replaceChildren(keysArea, keyTable(await api<ApiKeyRow[]>('GET', `/${mode}/keys`), mode, refresh));

  const createForm = form({
    label: 'Create an API key',
    submit: `Create ${mode} key`,
    fields: [
      field('Label', input({ name: 'label', maxlength: '100' }), 'A note for you, e.g. "production server"'),
      field(
        'Allowed IP addresses',
        input({ name: 'allowed_ips' }),
        'Optional: comma-separated addresses or CIDR ranges; empty allows any address',
      ),
    ],
    async onSubmit(data) {
      const key = await api<ApiKeyRow & { api_key: string }>('POST', `/${mode}/keys`, {
        label: text(data, 'label'),
        allowed_ips: text(data, 'allowed_ips'),
      });
      replaceChildren(
        created,
        h('p', { class: 'notice' }, 'Copy this key now: it is shown only once and cannot be retrieved again.'),
        h('dl', {}, copyableField('API key', key.api_key, { id: 'new-api-key', emphasis: true })),
      );
      (createForm.elements.namedItem('label') as HTMLInputElement).value = '';
      (createForm.elements.namedItem('allowed_ips') as HTMLInputElement).value = '';
      await refresh();
      created.querySelector<HTMLButtonElement>('button')?.focus();
    },
  });

  const rotateForm = form({
    label: 'Rotate the webhook signing secret',
    submit: 'Rotate secret',
    fields: [
      field(
        'Overlap (hours)',
        input({ name: 'overlap_hours', type: 'number', min: '0', max: '168', value: '24' }),
        'How long the old secret keeps signing alongside the new one; 0 stops it at once',
      ),
    ],
    async onSubmit(data) {
      const answer = await api<{ webhook_secret: string; previous_secret_valid_until: string | null }>(
        'POST',
        `/${mode}/webhook-secret/rotate`,
        {
          overlap_hours: Number(text(data, 'overlap_hours') || '0'),
        },
      );
      replaceChildren(
        secretArea,
        h(
          'p',
          { class: 'notice' },
          answer.previous_secret_valid_until
            ? `The old secret also signs until ${answer.previous_secret_valid_until}.`
            : 'The old secret no longer signs.',
        ),
        h('dl', {}, copyableField('Webhook secret', answer.webhook_secret, { id: 'new-webhook-secret' })),
      );
    },
  });

  const element = h(
    'div',
    {},
    h('h1', {}, 'Developers'),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'keys-h' },
      h('h2', { id: 'keys-h' }, `API keys (${mode})`),
      keysArea,
      h('h3', {}, 'Create a key'),
      createForm,
      created,
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'secret-h' },
      h('h2', { id: 'secret-h' }, `Webhook signing secret (${mode})`),
      rotateForm,
      secretArea,
    ),
    testEventSection(mode),
  );
  refresh().catch((error: unknown) => showError(keysArea, error));
  return { name: 'developers', title: 'Developers', element };
}

function keyTable(keys: ApiKeyRow[], mode: Mode, refresh: () => Promise<void>): HTMLElement {
  if (keys.length === 0) return h('p', {}, `No ${mode} keys yet.`);
  return h(
    'table',
    {},
    h('caption', { class: 'visually-hidden' }, `API keys (${mode})`),
    h('thead', {}, h('tr', {}, ...['Key', 'Label', 'Created', 'Allowed IPs', 'Status'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ...keys.map((key) => keyRow(key, mode, refresh))),
  );
}

function keyRow(key: ApiKeyRow, mode: Mode, refresh: () => Promise<void>): HTMLElement {
  const status = h('td', {});
  const problems = h('div', { role: 'alert' });
  if (key.revoked_at) status.append(`Revoked ${key.revoked_at}`);
  else {
    const revoke = h('button', { type: 'button', class: 'danger', 'aria-label': `Revoke key ${key.key}` }, 'Revoke');
    revoke.addEventListener('click', () => {
      if (!confirm(`Revoke ${key.key}? Requests with it are refused from then on.`)) return;
      api('POST', `/${mode}/keys/${key.key_id}/revoke`).then(refresh, (error: unknown) => showError(problems, error));
    });
    status.append('Active ', revoke, problems);
  }
  const ips = input({ name: 'allowed_ips', value: key.allowed_ips?.join(', ') ?? '', 'aria-label': `Allowed IP addresses of ${key.key}` });
  const save = h('button', { type: 'button' }, 'Save');
  const ipProblems = h('div', { role: 'alert' });
  save.addEventListener('click', () => {
    api<ApiKeyRow>('PUT', `/${mode}/keys/${key.key_id}/allowed-ips`, { allowed_ips: ips.value.trim() }).then(
      (saved) => {
        ips.value = saved.allowed_ips?.join(', ') ?? '';
        replaceChildren(ipProblems, h('span', { class: 'saved' }, saved.allowed_ips ? 'Saved' : 'Saved: any address'));
      },
      (error: unknown) => showError(ipProblems, error),
    );
  });
  return h(
    'tr',
    { 'data-key-id': key.key_id },
    h('td', {}, h('code', {}, key.key)),
    h('td', {}, key.label ?? ''),
    h('td', {}, key.created_at),
    h('td', {}, key.revoked_at ? (key.allowed_ips?.join(', ') ?? 'any') : h('span', { class: 'inline' }, ips, save, ipProblems)),
    status,
  );
}

interface TestEvent {
  delivery_id: string;
  url: string;
  sent_at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

function testEventSection(mode: Mode): HTMLElement {
  const log = h('div', { 'aria-live': 'polite' });
  const refresh = async () => {
    const events = await api<TestEvent[]>('GET', `/${mode}/test-events`);
    replaceChildren(
      log,
      events.length === 0
        ? h('p', {}, 'No test event sent yet.')
        : h(
            'table',
            { class: 'test-events' },
            h('caption', { class: 'visually-hidden' }, 'Test events sent, newest first'),
            h('thead', {}, h('tr', {}, ...['Sent', 'URL', 'Status', 'Latency', 'Error'].map((t) => h('th', { scope: 'col' }, t)))),
            h(
              'tbody',
              {},
              ...events.map((e) =>
                h(
                  'tr',
                  { class: 'attempt' },
                  h('td', {}, e.sent_at),
                  h('td', {}, h('code', {}, e.url)),
                  h('td', {}, e.status_code === null ? '–' : String(e.status_code)),
                  h('td', {}, `${e.latency_ms} ms`),
                  h('td', {}, e.error ?? ''),
                ),
              ),
            ),
          ),
    );
  };
  const sendForm = form({
    label: 'Send a test event',
    submit: 'Send test event',
    fields: [
      field(
        'Webhook URL',
        input({ name: 'url', type: 'url', required: true }),
        'Receives a payment.completed event for a made-up session, signed like a real delivery',
      ),
    ],
    async onSubmit(data) {
      await api('POST', `/${mode}/test-events`, { url: text(data, 'url') });
      await refresh();
    },
  });
  refresh().catch((error: unknown) => showError(log, error));
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'test-event-h' },
    h('h2', { id: 'test-event-h' }, 'Send a test event'),
    sendForm,
    log,
  );
}
