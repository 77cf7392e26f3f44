/// <reference lib="dom" />
// Settings of the merchant (the same in test and live): settlement wallet (password required), payment
// settings, bank accounts, and the team and the signed-in user's own security.
import { h, replaceChildren } from '../../src/dom';
import { api } from '../api';
import { field, form, input, showError, text } from '../forms';
import type { Me, View } from '../types';
import { securitySection, teamSection } from './account';

const TOKENS = ['USDC', 'USDT'] as const;
const CHAINS = ['ethereum', 'polygon', 'arbitrum', 'optimism', 'base', 'bsc', 'solana', 'tron'] as const;

interface BankAccount {
  bank_account_id: string;
  currency: string;
  account_name: string;
  bank_name: string;
  iban: string | null;
  account_number: string | null;
  active: boolean;
}

interface Settings {
  settlement_wallet: string | null;
  tolerance_bps: number;
  tolerance_min_cents: number;
  session_lifetime_minutes: number;
  supported_tokens: Partial<Record<string, string[]>>;
  underpaid_expiry: 'settle' | 'refund';
  bank_accounts: BankAccount[];
}

export function settingsView(me: Me): View {
  const body = h('div', {}, h('p', {}, 'Loading…'));
  const element = h('div', {}, h('h1', {}, 'Settings'), body);
  const load = async () => {
    const settings = await api<Settings>('GET', '/settings');
    replaceChildren(
      body,
      walletSection(settings, load),
      paymentSection(settings),
      bankSection(settings.bank_accounts, load),
      teamSection(),
      securitySection(me),
    );
  };
  load().catch((error: unknown) => showError(body, error));
  return { name: 'settings', title: 'Settings', element };
}

function card(id: string, title: string, ...children: (Node | string)[]): HTMLElement {
  return h('section', { class: 'card', 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}

function walletSection(settings: Settings, reload: () => Promise<void>): HTMLElement {
  return card(
    'wallet-h',
    'Settlement wallet',
    h('p', {}, 'Payments settle as USDC on Solana to ', h('code', { id: 'current-wallet' }, settings.settlement_wallet ?? 'not set'), '.'),
    form({
      label: 'Change the settlement wallet',
      submit: 'Change wallet',
      fields: [
        field('New settlement wallet', input({ name: 'settlement_wallet', autocomplete: 'off', spellcheck: 'false' }), 'A Solana address'),
        field(
          'Your password',
          input({ name: 'password', type: 'password', autocomplete: 'current-password' }),
          'Changing where money goes needs your password again',
        ),
      ],
      async onSubmit(data) {
        await api('POST', '/settings/settlement-wallet', {
          settlement_wallet: text(data, 'settlement_wallet'),
          password: String(data.get('password') ?? ''),
        });
        await reload();
      },
    }),
  );
}

function paymentSection(settings: Settings): HTMLElement {
  const saved = h('p', { role: 'status' });
  const pairs = TOKENS.map((token) =>
    h(
      'fieldset',
      { class: 'pairs-set' },
      h('legend', {}, `${token} on`),
      ...CHAINS.map((chain) =>
        h(
          'label',
          { class: 'check' },
          input({ type: 'checkbox', name: `pair:${token}:${chain}`, checked: settings.supported_tokens[token]?.includes(chain) ?? false }),
          ` ${chain}`,
        ),
      ),
    ),
  );
  const underpaidExpiry = h(
    'select',
    { name: 'underpaid_expiry' },
    h('option', { value: 'settle' }, 'Settle what arrived to me'),
    h('option', { value: 'refund' }, 'Refund it all to the customer'),
  );
  underpaidExpiry.value = settings.underpaid_expiry;
  return card(
    'payments-h',
    'Payments',
    form({
      label: 'Payment settings',
      submit: 'Save payment settings',
      fields: [
        field(
          'Tolerance (basis points)',
          input({ name: 'tolerance_bps', type: 'number', min: '0', max: '10000', value: String(settings.tolerance_bps) }),
          '50 = 0.5 % of the amount',
        ),
        field(
          'Minimum tolerance (US cents)',
          input({ name: 'tolerance_min_cents', type: 'number', min: '0', value: String(settings.tolerance_min_cents) }),
        ),
        field(
          'Session lifetime (minutes)',
          input({
            name: 'session_lifetime_minutes',
            type: 'number',
            min: '1',
            max: '10080',
            value: String(settings.session_lifetime_minutes),
          }),
        ),
        field('Underpaid at expiry', underpaidExpiry, 'What a session that received less than its amount does when it expires'),
        ...pairs,
      ],
      async onSubmit(data) {
        const supported: Record<string, string[]> = {};
        for (const token of TOKENS) supported[token] = CHAINS.filter((chain) => data.get(`pair:${token}:${chain}`) === 'on');
        await api('PUT', '/settings', {
          tolerance_bps: Number(text(data, 'tolerance_bps')),
          tolerance_min_cents: Number(text(data, 'tolerance_min_cents')),
          session_lifetime_minutes: Number(text(data, 'session_lifetime_minutes')),
          supported_tokens: supported,
          underpaid_expiry: text(data, 'underpaid_expiry'),
        });
        saved.textContent = 'Saved. New sessions use these settings.';
      },
    }),
    saved,
  );
}

function bankSection(accounts: BankAccount[], reload: () => Promise<void>): HTMLElement {
  const rows = accounts.map((a) => {
    const problems = h('span', { role: 'alert' });
    const deactivate = h('button', { type: 'button', class: 'danger', 'aria-label': `Deactivate the ${a.currency} account` }, 'Deactivate');
    deactivate.addEventListener(
      'click',
      () => void api('POST', `/bank-accounts/${a.bank_account_id}/deactivate`).then(reload, (error: unknown) => showError(problems, error)),
    );
    return h(
      'tr',
      {},
      h('td', {}, a.currency),
      h('td', {}, a.account_name),
      h('td', {}, a.bank_name),
      h('td', {}, h('code', {}, a.iban ?? a.account_number ?? '')),
      h('td', {}, a.active ? h('span', {}, 'Active ', deactivate, problems) : 'Inactive'),
    );
  });
  return card(
    'bank-h',
    'Bank accounts',
    accounts.length === 0
      ? h('p', {}, 'No bank account: customers can pay only in stablecoins.')
      : h(
          'table',
          {},
          h(
            'thead',
            {},
            h('tr', {}, ...['Currency', 'Account name', 'Bank', 'IBAN or number', 'Status'].map((t) => h('th', { scope: 'col' }, t))),
          ),
          h('tbody', {}, ...rows),
        ),
    h('h3', {}, 'Add a bank account'),
    form({
      label: 'Add a bank account',
      submit: 'Add account',
      fields: [
        field('Currency', input({ name: 'currency', maxlength: '3' }), 'ISO 4217, e.g. EUR; one active account per currency'),
        field('Account name', input({ name: 'account_name' })),
        field('Bank name', input({ name: 'bank_name' })),
        field('IBAN', input({ name: 'iban' }), 'Give an IBAN or an account number'),
        field('SWIFT/BIC', input({ name: 'swift_bic' })),
        field('Account number', input({ name: 'account_number' })),
        field('Sort code', input({ name: 'sort_code' })),
      ],
      async onSubmit(data) {
        const fields = ['currency', 'account_name', 'bank_name', 'iban', 'swift_bic', 'account_number', 'sort_code'];
        await api('POST', '/bank-accounts', Object.fromEntries(fields.map((name) => [name, text(data, name)])));
        await reload();
      },
    }),
  );
}
