/// <reference lib="dom" />
// The team (users of this merchant, inviting a colleague by a one-time link) and the signed-in user's own
// security: enrolling an authenticator app (TOTP) and signing out on every device.
import { copyableField } from '../../src/copy';
import { h, replaceChildren } from '../../src/dom';
import { qrImage } from '../../src/qr';
import { api } from '../api';
import { navigate } from '../navigation';
import { field, form, input, showError, text } from '../forms';
import type { Me } from '../types';

interface User {
  email: string;
  accepted: boolean;
  totp_enabled: boolean;
}

export function teamSection(): HTMLElement {
  const list = h('div', {});
  const invited = h('div', { 'aria-live': 'polite' });
  const load = async () => {
    const users = await api<User[]>('GET', '/users');
    replaceChildren(
      list,
      h('ul', {}, ...users.map((u) => h('li', {}, u.email, u.accepted ? (u.totp_enabled ? ' (authenticator app on)' : '') : ' (invited)'))),
    );
  };
  load().catch((error: unknown) => showError(list, error));
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'team-h' },
    h('h2', { id: 'team-h' }, 'Team'),
    list,
    form({
      label: 'Invite a colleague',
      submit: 'Invite',
      fields: [field('Colleague’s email', input({ name: 'email', type: 'email' }))],
      async onSubmit(data) {
        const answer = await api<{ invitation_url: string }>('POST', '/users', { email: text(data, 'email') });
        replaceChildren(
          invited,
          h('p', { class: 'notice' }, 'Send this one-time link to your colleague; it is shown only now and works for 7 days.'),
          h('dl', {}, copyableField('Invitation link', answer.invitation_url)),
        );
        await load();
      },
    }),
    invited,
  );
}

export function securitySection(me: Me): HTMLElement {
  const totpArea = h('div', {});
  if (me.user.totp_enabled) totpArea.append(h('p', {}, 'An authenticator app is required at sign-in.'));
  else {
    const start = h('button', { type: 'button' }, 'Set up an authenticator app');
    start.addEventListener('click', () => {
      api<{ secret: string; otpauth_uri: string }>('POST', '/totp/setup').then(
        async (setup) => {
          replaceChildren(
            totpArea,
            h('p', {}, 'Scan the code with your authenticator app, or enter the secret by hand, then type the 6-digit code it shows.'),
            await qrImage(setup.otpauth_uri, 'QR code of the authenticator secret'),
            h('dl', {}, copyableField('Secret', setup.secret, { id: 'totp-secret' })),
            form({
              label: 'Confirm the authenticator app',
              submit: 'Turn on',
              fields: [field('Code from the app', input({ name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code' }))],
              async onSubmit(data) {
                await api('POST', '/totp/enable', { code: text(data, 'code') });
                replaceChildren(totpArea, h('p', { role: 'status' }, 'Authenticator app turned on: sign-in now asks for its code.'));
              },
            }),
          );
        },
        (error: unknown) => showError(totpArea, error),
      );
    });
    totpArea.append(h('p', {}, 'Sign-in asks only for your password.'), start);
  }
  const everywhere = h('button', { type: 'button', class: 'danger' }, 'Sign out everywhere');
  everywhere.addEventListener('click', () => void api('POST', '/sign-out-everywhere').then(() => navigate('/dashboard')));
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'security-h' },
    h('h2', { id: 'security-h' }, `Your account (${me.user.email})`),
    h('h3', {}, 'Authenticator app'),
    totpArea,
    h('h3', {}, 'Sessions'),
    h('p', {}, 'Ends your dashboard sessions on every device, this one included.'),
    everywhere,
  );
}
