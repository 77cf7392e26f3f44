-- Tron writes join the write-ahead record (the Tron relayer's sweeps). A Tron transaction has no nonce:
-- it is bound to a reference block and an expiration time the signer picks, and a txID (sha256 of raw_data) can be
-- included once, ever. The row keeps the relayer (sender), the fixed call (contract, selector, parameter, fee limit,
-- call value) and, once signed, the expiration: the proof that an unseen transaction is dead needs it. The fee the
-- relayer paid (sun) is recorded when the transaction lands, whether it succeeded or reverted.
alter table chain_intents drop constraint chain_intents_chain;
alter table chain_intents add constraint chain_intents_chain
  check (chain in ('solana', 'ethereum', 'polygon', 'arbitrum', 'optimism', 'base', 'bsc', 'tron'));
alter table chain_intents
  add column expires_at timestamptz,
  add column fee_paid   numeric(78, 0) check (fee_paid >= 0);

alter table chain_intents drop constraint chain_intents_signed_bytes;
alter table chain_intents add constraint chain_intents_signed_bytes check (
  (status = 'prepared') = (signature is null)
  and (signature is null) = (wire_transaction is null)
  and (chain <> 'solana' or (signature is null) = (last_valid_block_height is null))
  and (chain in ('solana', 'tron') or (signature is null) = (nonce is null))
  and (chain <> 'tron' or ((signature is null) = (expires_at is null) and nonce is null and last_valid_block_height is null))
);
