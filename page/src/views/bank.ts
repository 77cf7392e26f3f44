/// <reference lib="dom" />
// Bank transfer: the currency (asked only when there are several), then the account field by field with
// copy buttons and the payment reference the transfer must carry, highlighted.
import type { BankCurrenciesResponse, BankDetails, BankDetailsResponse } from '../../../domain/session/bankTransfer';
import type { Api } from '../api';
import { copyableField } from '../copy';
import { h, replaceChildren } from '../dom';
import { formatMoney } from '../format';
import { changeButton } from './pay';

export interface BankOptions {
  api: Api;
  onBack?: (() => void) | undefined;
}

export function renderBank({ api, onBack }: BankOptions): HTMLElement {
  const body = h('div', { class: 'bank-body' }, h('p', { class: 'loading' }, 'Loading bank details…'));
  const section = h(
    'section',
    { class: 'step', 'aria-labelledby': 'bank-heading' },
    h('h2', { id: 'bank-heading' }, 'Pay by bank transfer'),
    body,
    onBack ? changeButton('Pay with stablecoins instead', onBack) : null,
  );

  const showDetails = async (currency: string | undefined, into: HTMLElement) => {
    replaceChildren(into, h('p', { class: 'loading' }, 'Loading bank details…'));
    try {
      const query = currency ? `?currency=${encodeURIComponent(currency)}` : '';
      const { encoded_bank_details } = await api.get<BankDetailsResponse>(`/checkout/sessions/bank-details${query}`);
      replaceChildren(into, detailsList(decode(encoded_bank_details)));
    } catch (failure) {
      replaceChildren(into, h('p', { class: 'error', role: 'alert' }, (failure as Error).message));
    }
  };

  void api.get<BankCurrenciesResponse>('/checkout/sessions/bank-currencies').then(
    ({ currencies }) => {
      if (currencies.length <= 1) return showDetails(undefined, body);
      const details = h('div', { class: 'bank-details', 'aria-live': 'polite' });
      const select = h(
        'select',
        { id: 'bank-currency', name: 'currency' },
        h('option', { value: '' }, 'Choose a currency'),
        ...currencies.map((c) => h('option', { value: c }, c)),
      );
      select.addEventListener('change', () => {
        if (select.value) void showDetails(select.value, details);
        else replaceChildren(details);
      });
      replaceChildren(
        body,
        h('p', { class: 'field-select' }, h('label', { for: 'bank-currency' }, 'Currency of your transfer'), select),
        details,
      );
      return undefined;
    },
    (failure: unknown) => replaceChildren(body, h('p', { class: 'error', role: 'alert' }, (failure as Error).message)),
  );
  return section;
}

/** encoded_bank_details is base64 of UTF-8 JSON (docs/api.md#bank-transfer); atob alone would garble non-ASCII names. */
function decode(encoded: string): BankDetails {
  const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as BankDetails;
}

function detailsList(d: BankDetails): HTMLElement {
  const rows: [string, string | null][] = [
    ['Account name', d.account_name],
    ['Bank name', d.bank_name],
    ['IBAN', d.iban],
    ['SWIFT / BIC', d.swift_bic],
    ['Account number', d.account_number],
    ['Sort code', d.sort_code],
  ];
  return h(
    'div',
    {},
    d.currency === 'USD'
      ? h('p', {}, 'Transfer ', h('strong', {}, formatMoney(d.amount_usd, 'USD')), ' to:')
      : h('p', {}, 'Transfer the equivalent of ', h('strong', {}, formatMoney(d.amount_usd, 'USD')), ` in ${d.currency} to:`),
    h(
      'dl',
      { class: 'fields' },
      copyableField('Payment reference', d.reference, { emphasis: true, id: 'bank-reference' }),
      ...rows.filter((row): row is [string, string] => row[1] !== null).map(([label, value]) => copyableField(label, value)),
    ),
    h(
      'p',
      { class: 'notice' },
      'Put the payment reference in your transfer exactly as shown: it is how your payment is matched to this checkout. This page updates once the merchant has received it.',
    ),
  );
}
