-- Durable nonces for Solana payouts (docs/settlement.md#payouts). A payout is signed against a nonce account of its
-- treasury instead of a recent blockhash, so its one signed transaction never expires and is never signed again:
-- it is sent until the nonce moves on, and then it is the one that moved it.
--   solana_nonce_accounts: the treasury's pool, at addresses derived from the treasury and `seed`
--   (createAccountWithSeed), created by the chain intent `created_by`, or found on chain already (created_by null).
--   `held_by` is the payout intent last signed against it: another payout takes the account only once its nonce
--   has moved on in the finalized chain, so two in-flight transactions never share a nonce.
--   chain_intents.nonce_account / nonce_value: the account and the nonce a durable-nonce intent was signed against,
--   in place of last_valid_block_height.
create table solana_nonce_accounts (
  address    text primary key,
  treasury   text not null,
  seed       text not null,
  created_by text references chain_intents (id),
  held_by    text unique references chain_intents (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (treasury, seed)
);

alter table chain_intents add column nonce_account text, add column nonce_value text;
alter table chain_intents add constraint chain_intents_durable_nonce check (
  (nonce_account is null) = (nonce_value is null) and (nonce_account is null or chain = 'solana')
);
-- A signed Solana intent is bound to a blockhash's height or to a durable nonce, exactly one of the two.
alter table chain_intents drop constraint chain_intents_signed_bytes;
alter table chain_intents add constraint chain_intents_signed_bytes check (
  (status = 'prepared') = (signature is null)
  and (signature is null) = (wire_transaction is null)
  and (chain <> 'solana' or (signature is null) = (last_valid_block_height is null and nonce_account is null))
  and (last_valid_block_height is null or nonce_account is null)
  and (chain in ('solana', 'tron') or (signature is null) = (nonce is null))
  and (chain <> 'tron' or ((signature is null) = (expires_at is null) and nonce is null and last_valid_block_height is null))
);
