-- Solana deposit addresses the signer derived ahead of the sessions that will take them (for select-payment
-- without a round trip to the signer). A Solana address needs the seed (SLIP-0010 is hardened-only), so choosing a
-- Solana pair used to wait for a signer activity; the signer now derives the next indexes' addresses whenever it
-- derives one, and the worker takes a session's from here when it is there. Public data: the address of an index,
-- nothing that spends it.
create table solana_deposit_address_pool (
  mode             text not null check (mode in ('test', 'live')),
  derivation_index bigint not null check (derivation_index >= 0),
  address          text not null,
  primary key (mode, derivation_index)
);
