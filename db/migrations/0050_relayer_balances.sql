-- The relayers' native-coin balances as the signer last read them (relayer gas per chain as a metric).
-- Only the signer knows a relayer's address (it derives it from the key) and reads its chains; the API's metrics
-- read this table, so a scrape makes no RPC call and needs no relayer configuration of its own.
create table relayer_balances (
  chain       text not null,
  mode        text not null check (mode in ('test', 'live')),
  address     text not null,
  balance_wei numeric(78, 0) not null check (balance_wei >= 0),
  observed_at timestamptz not null,
  primary key (chain, mode)
);
