/// <reference lib="dom" />
// Email and password; when the account has an authenticator app, a second step asks for its code.
import { h } from '../../src/dom';
import { api } from '../api';
import { navigate } from '../navigation';
import { field, form, input, text } from '../forms';
import type { View } from '../types';

export function signInView(): View {
  const codeField = field(
    'Authenticator code',
    input({ name: 'totp_code', inputmode: 'numeric', autocomplete: 'one-time-code', pattern: '[0-9]{6}' }),
    'The 6-digit code from your authenticator app',
  );
  codeField.hidden = true;
  const element = h(
    'section',
    { class: 'card narrow' },
    h('h1', {}, 'Sign in'),
    form({
      label: 'Sign in',
      submit: 'Sign in',
      fields: [
        field('Email', input({ name: 'email', type: 'email', autocomplete: 'username', required: true })),
        field('Password', input({ name: 'password', type: 'password', autocomplete: 'current-password', required: true })),
        codeField,
      ],
      async onSubmit(data) {
        const code = text(data, 'totp_code');
        const answer = await api<{ totp_required?: boolean }>('POST', '/sign-in', {
          email: text(data, 'email'),
          password: String(data.get('password') ?? ''),
          ...(codeField.hidden ? {} : { totp_code: code }),
        });
        if (answer.totp_required) {
          codeField.hidden = false;
          codeField.querySelector('input')!.focus();
          return;
        }
        navigate('/dashboard/test/sessions');
      },
    }),
  );
  return { name: 'sign-in', title: 'Sign in', element };
}
