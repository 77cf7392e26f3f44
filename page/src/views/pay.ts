/// <reference lib="dom" />
// The payment instructions: exact amount, deposit address, token contract, QR code and wallet link, the
// network's confirmation count and finality. After an underpayment the same view asks for the rest.
import type { HostedCheckoutSession, HostedPayment } from '../../../domain/wire/hostedCheckout';
import { copyableField } from '../copy';
import { h } from '../dom';
import { approxDuration, chainName, trimTokenAmount } from '../format';
import { qrImage } from '../qr';

export interface PayOptions {
  session: HostedCheckoutSession;
  payment: HostedPayment;
  /** Offered while nothing has arrived: the customer may still switch token or network. */
  onChangeChoice?: (() => void) | undefined;
}

export function renderPay({ session, payment, onChangeChoice }: PayOptions): HTMLElement {
  const underpaid = session.status === 'underpaid';
  const amount = trimTokenAmount(underpaid ? payment.amount_due : payment.amount);
  const network = chainName(payment.chain);
  const uri = underpaid ? payment.payment_uri_due : payment.payment_uri;

  const qrBox = h(
    'figure',
    { class: 'qr-box' },
    h('div', { class: 'qr-placeholder', 'aria-hidden': 'true' }),
    h('figcaption', {}, 'Scan with your wallet app'),
  );
  void qrImage(uri, `QR code: pay ${amount} ${payment.token} on ${network} to ${payment.deposit_address}`).then(
    (image) => qrBox.querySelector('.qr-placeholder')?.replaceWith(image),
    () => qrBox.querySelector('figcaption')?.replaceChildren('The QR code could not be drawn; copy the details instead.'),
  );

  return h(
    'section',
    { class: 'step', 'aria-labelledby': 'pay-heading' },
    h('h2', { id: 'pay-heading' }, underpaid ? `Send the remaining ${amount} ${payment.token}` : `Send exactly ${amount} ${payment.token}`),
    underpaid
      ? h(
          'p',
          { class: 'notice notice-warn' },
          `We received ${trimTokenAmount(payment.amount_received)} of ${trimTokenAmount(payment.amount)} ${payment.token}. `,
          h('strong', {}, `${amount} ${payment.token} is still due.`),
        )
      : null,
    h(
      'p',
      { class: 'network-warning' },
      'Network: ',
      h('strong', {}, network),
      `. Send ${payment.token} on ${network} only; funds sent on another network are lost.`,
    ),
    h(
      'div',
      { class: 'pay-grid' },
      qrBox,
      h(
        'dl',
        { class: 'fields' },
        copyableField('Amount', amount, { id: 'pay-amount' }),
        copyableField('Address', payment.deposit_address, { emphasis: true, id: 'pay-address' }),
        copyableField(`${payment.token} contract`, payment.token_address, { id: 'pay-contract' }),
      ),
    ),
    h('p', { class: 'actions' }, h('a', { class: 'button primary', href: uri }, 'Open in wallet')),
    h(
      'ul',
      { class: 'facts' },
      h('li', {}, `Confirmations required: ${payment.confirmations_required}`),
      h('li', {}, `Estimated time to finality on ${network}: ${approxDuration(payment.estimated_finality_seconds)}`),
    ),
    onChangeChoice ? changeButton('Choose another token or network', onChangeChoice) : null,
  );
}

export function changeButton(label: string, onClick: () => void): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'link' }, label);
  button.addEventListener('click', onClick);
  return button;
}
