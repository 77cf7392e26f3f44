/// <reference lib="dom" />
// The one-time link from an invitation: the user chooses a password and is signed in.
import { h } from '../../src/dom';
import { api } from '../api';
import { navigate } from '../navigation';
import { field, form, input } from '../forms';
import type { View } from '../types';

export function acceptInviteView(token: string): View {
  const element = h(
    'section',
    { class: 'card narrow' },
    h('h1', {}, 'Choose your password'),
    h('p', {}, 'You were invited to the merchant dashboard. Choose a password of at least 12 characters to finish.'),
    form({
      label: 'Choose your password',
      submit: 'Set password and sign in',
      fields: [
        field('New password', input({ name: 'password', type: 'password', autocomplete: 'new-password', required: true, minlength: '12' })),
      ],
      async onSubmit(data) {
        await api('POST', '/invite/accept', { token, password: String(data.get('password') ?? '') });
        history.replaceState(null, '', '/dashboard');
        navigate('/dashboard/test/sessions');
      },
    }),
  );
  return { name: 'accept-invite', title: 'Choose your password', element };
}
