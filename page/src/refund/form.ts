/// <reference lib="dom" />
// The claim form: where the refund goes, checked as the customer types with the same rules the API applies
// (domain/refunds/refundAddress.ts), the warning about exchange deposit addresses with its required confirmation, the
// explicit choice of the address that paid (never filled in by itself), and the proof of ownership when required.
import { refundClaimMessage } from '../../../domain/refunds/claimMessage';
import { validateOwnerAddress } from '../../../domain/refunds/refundAddress';
import type { RefundClaimState } from '../../../domain/wire/refund';
import { h } from '../dom';
import { chainName } from '../format';
import type { ClaimApi } from './api';

export function renderClaimForm(state: RefundClaimState, api: ClaimApi, done: (state: RefundClaimState) => void): HTMLElement {
  const routeKey = (r: { chain: string; token: string }) => `${r.token}:${r.chain}`;
  const routeInputs = state.routes.map((route, i) =>
    h('input', { type: 'radio', name: 'route', value: routeKey(route), checked: i === 0 }),
  );
  const route = () => state.routes[routeInputs.findIndex((input) => input.checked)] ?? state.routes[0];

  const address = h('input', {
    id: 'refund-address',
    name: 'address',
    type: 'text',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    'aria-describedby': 'refund-address-error',
    required: true,
  });
  const addressLabel = h('label', { for: 'refund-address', class: 'progress-title' });
  const addressError = h('p', { id: 'refund-address-error', class: 'error', 'aria-live': 'polite' });
  const acknowledged = h('input', { id: 'refund-acknowledge', type: 'checkbox', required: true });
  const formError = h('p', { id: 'claim-error', class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Send my refund here');

  const sender = state.sender;
  const senderRoute = sender ? state.routes.find((r) => r.chain === sender.chain) : undefined;
  const sendBack =
    sender && senderRoute
      ? h('button', { type: 'button', id: 'send-back', class: 'link send-back' }, `Send back to the address that paid (${sender.address})`)
      : null;

  const message = h('pre', { id: 'claim-message', class: 'value' });
  const signature = h('input', { id: 'sender-signature', type: 'text', autocomplete: 'off', spellcheck: 'false' });
  const proof = state.require_sender_proof
    ? h(
        'fieldset',
        { class: 'proof' },
        h('legend', {}, 'Prove the payment was yours'),
        sender
          ? h(
              'p',
              {},
              'The merchant asks for proof that you own the wallet that paid, ',
              h('code', {}, sender.address),
              `. With that wallet's "sign message" feature, sign exactly this text, then paste the signature below.`,
            )
          : h('p', {}, 'The merchant asks for proof from the wallet that paid, but no payment is on record. Contact the merchant.'),
        message,
        h('label', { for: 'sender-signature', class: 'progress-title' }, 'Signature'),
        signature,
      )
    : null;

  const check = () => {
    const r = route();
    if (!r) return undefined;
    addressLabel.textContent = `Your wallet address on ${chainName(r.chain)}`;
    message.textContent = refundClaimMessage(state.refund_id, { ...r, address: address.value.trim() });
    const typed = address.value.trim();
    const result = typed === '' ? undefined : validateOwnerAddress(r.chain, typed);
    addressError.textContent = result && !result.ok ? `This address ${result.problem}` : '';
    address.setAttribute('aria-invalid', String(result !== undefined && !result.ok));
    return result;
  };
  address.addEventListener('input', () => void check());
  for (const input of routeInputs) input.addEventListener('change', () => void check());
  sendBack?.addEventListener('click', () => {
    if (!sender || !senderRoute) return;
    const index = state.routes.indexOf(senderRoute);
    const input = routeInputs[index];
    if (input) input.checked = true;
    address.value = sender.address;
    check();
    address.focus();
  });

  const form = h(
    'form',
    { class: 'step', novalidate: true, 'aria-labelledby': 'claim-heading' },
    h('h2', { id: 'claim-heading' }, 'Where should we send it?'),
    h(
      'fieldset',
      { class: 'choices' },
      h('legend', {}, 'Receive it as'),
      ...state.routes.map((r, i) =>
        h(
          'label',
          { class: 'option' },
          routeInputs[i] as HTMLInputElement,
          h('span', { class: 'option-label' }, `${r.token} on ${chainName(r.chain)}`),
        ),
      ),
    ),
    addressLabel,
    address,
    addressError,
    sendBack ? h('p', {}, sendBack) : null,
    h(
      'p',
      { class: 'notice notice-warn' },
      'Give the address of a wallet you control. Do not give an exchange deposit address: an exchange may not credit a refund it did not expect, and the money can be lost.',
    ),
    h(
      'label',
      { class: 'option', for: 'refund-acknowledge' },
      acknowledged,
      h('span', {}, 'This is my own wallet, not an exchange deposit address.'),
    ),
    proof,
    formError,
    h('p', { class: 'actions' }, submit),
  );
  check();

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const r = route();
    const result = check();
    formError.textContent = '';
    if (!r || !result?.ok) {
      if (!result) addressError.textContent = 'Enter the address of your wallet';
      address.focus();
      return;
    }
    if (!acknowledged.checked) {
      formError.textContent = 'Confirm that the address is a wallet you control';
      acknowledged.focus();
      return;
    }
    submit.disabled = true;
    const given = signature.value.trim();
    api
      .claim({
        destination: { chain: r.chain, token: r.token, address: result.address },
        acknowledged_exchange_warning: true,
        ...(state.require_sender_proof && given ? { sender_proof: { signature: given } } : {}),
      })
      .then(done, (failure: unknown) => {
        formError.textContent = failure instanceof Error ? failure.message : 'The claim could not be sent; try again.';
        submit.disabled = false;
      });
  });
  return form;
}
