/// <reference lib="dom" />
// Step one: method (when bank transfer is offered), then token and network, offering only the session's
// own pairs. Native radio groups: arrow keys move within a group, Tab between groups, screen readers
// announce each legend.
import { CHAIN_FACTS, type Chain, type TokenSymbol } from '../../../domain/chains/chains';
import type { HostedCheckoutSession } from '../../../domain/wire/hostedCheckout';
import { h, replaceChildren } from '../dom';
import { approxDuration, chainName } from '../format';

export type Choice = { method: 'crypto'; token: TokenSymbol; chain: Chain } | { method: 'bank' };

export interface ChooseOptions {
  session: HostedCheckoutSession;
  initial?: { token: TokenSymbol; chain: Chain } | undefined;
  onChoose(choice: Choice): Promise<void>;
}

function radio(name: string, value: string, label: Node | string, checked: boolean): HTMLLabelElement {
  return h('label', { class: 'option' }, h('input', { type: 'radio', name, value, checked }), h('span', { class: 'option-label' }, label));
}

const checkedValue = (form: HTMLFormElement, name: string): string | undefined =>
  form.querySelector<HTMLInputElement>(`input[name="${name}"]:checked`)?.value;

export function renderChoose(options: ChooseOptions): HTMLElement {
  const { session } = options;
  const pairs = session.supported_tokens.tokens;
  const tokens = (Object.keys(pairs) as TokenSymbol[]).filter((t) => (pairs[t]?.chain.length ?? 0) > 0);
  const offerCrypto = session.supported_methods.crypto && tokens.length > 0;
  const offerBank = session.supported_methods.bank;
  const firstToken = options.initial?.token ?? tokens[0];

  const chainGroup = h('fieldset', { class: 'choices' });
  const renderChains = (token: TokenSymbol, preferred?: Chain) => {
    const chains = pairs[token]?.chain ?? [];
    const selected = preferred && chains.includes(preferred) ? preferred : chains[0];
    replaceChildren(
      chainGroup,
      h('legend', {}, 'Network'),
      ...chains.map((chain) =>
        radio(
          'chain',
          chain,
          h(
            'span',
            {},
            h('strong', {}, chainName(chain)),
            h('small', {}, `confirms in ${approxDuration(CHAIN_FACTS[chain].estimatedFinalitySeconds)}`),
          ),
          chain === selected,
        ),
      ),
    );
  };

  const tokenGroup = h(
    'fieldset',
    { class: 'choices choices-inline' },
    h('legend', {}, 'Token'),
    ...tokens.map((t) => radio('token', t, t, t === firstToken)),
  );
  const cryptoPart = h('div', { class: 'crypto-part' }, tokenGroup, chainGroup);
  if (firstToken) renderChains(firstToken, options.initial?.chain);

  const methodGroup =
    offerCrypto && offerBank
      ? h(
          'fieldset',
          { class: 'choices choices-inline' },
          h('legend', {}, 'Payment method'),
          radio('method', 'crypto', 'Stablecoin (USDC or USDT)', true),
          radio('method', 'bank', 'Bank transfer', false),
        )
      : null;

  const error = h('p', { class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, offerCrypto ? 'Show payment details' : 'Show bank details');
  const form = h('form', { class: 'choose', novalidate: true }, methodGroup, offerCrypto ? cryptoPart : null, error, submit);

  form.addEventListener('change', (event) => {
    const target = event.target as HTMLInputElement;
    if (target.name === 'token') renderChains(target.value as TokenSymbol, checkedValue(form, 'chain') as Chain | undefined);
    if (target.name === 'method') {
      const bank = target.value === 'bank';
      cryptoPart.hidden = bank;
      submit.textContent = bank ? 'Show bank details' : 'Show payment details';
    }
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const method = offerCrypto ? (checkedValue(form, 'method') ?? 'crypto') : 'bank';
    const token = checkedValue(form, 'token') as TokenSymbol | undefined;
    const chain = checkedValue(form, 'chain') as Chain | undefined;
    if (method === 'crypto' && (!token || !chain)) {
      error.textContent = 'Choose a token and a network.';
      return;
    }
    error.textContent = '';
    submit.disabled = true;
    submit.setAttribute('aria-busy', 'true');
    const choice: Choice =
      method === 'bank' ? { method: 'bank' } : { method: 'crypto', token: token as TokenSymbol, chain: chain as Chain };
    options.onChoose(choice).then(
      () => undefined,
      (failure: unknown) => {
        error.textContent = failure instanceof Error ? failure.message : 'Something went wrong; try again.';
        submit.disabled = false;
        submit.removeAttribute('aria-busy');
      },
    );
  });

  return h(
    'section',
    { class: 'step', 'aria-labelledby': 'choose-heading' },
    h('h2', { id: 'choose-heading' }, 'How would you like to pay?'),
    offerCrypto || offerBank ? form : h('p', {}, 'This checkout offers no payment method. Contact the merchant.'),
  );
}
