-- EVM writes join the write-ahead record (the relayer's sweeps and CCTP burns). An EVM transaction is
-- bound to its sender's nonce, not to a blockhash: the row keeps the sender, the nonce it was signed with and the
-- call itself, so a stuck transaction can be signed again with the same nonce and higher fees (the old hash kept
-- in superseded_signatures, since either may still be mined), and a nonce another transaction took can be
-- replaced by a fresh one. `signature` holds the transaction hash.
alter table chain_intents drop constraint chain_intents_chain_check;
alter table chain_intents add constraint chain_intents_chain
  check (chain in ('solana', 'ethereum', 'polygon', 'arbitrum', 'optimism', 'base', 'bsc'));
alter table chain_intents
  add column mode         text check (mode in ('test', 'live')),
  add column sender       text,
  add column nonce        bigint check (nonce >= 0),
  -- { to, data, value }: what every signature of this intent calls, whatever its nonce and fees.
  add column call         jsonb,
  add column block_number bigint;
alter table chain_intents add constraint chain_intents_evm_fields check (
  chain = 'solana' or (mode is not null and sender is not null and call is not null)
);

alter table chain_intents drop constraint chain_intents_signed_bytes;
alter table chain_intents add constraint chain_intents_signed_bytes check (
  (status = 'prepared') = (signature is null)
  and (signature is null) = (wire_transaction is null)
  and (chain <> 'solana' or (signature is null) = (last_valid_block_height is null))
  and (chain = 'solana' or (signature is null) = (nonce is null))
);

-- The next nonce each relayer signs with, per network: taken under this row's lock in the transaction that stores
-- the signed bytes, so two signers never share a nonce and a crash before commit gives the nonce back.
create table evm_nonces (
  chain      text not null,
  mode       text not null check (mode in ('test', 'live')),
  sender     text not null,
  next_nonce bigint not null check (next_nonce >= 0),
  updated_at timestamptz not null default now(),
  primary key (chain, mode, sender)
);
