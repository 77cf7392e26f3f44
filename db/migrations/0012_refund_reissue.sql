-- An automatic refund that ended without paying (failed, expired, cancelled) hands its money to the operator
-- (docs/refunds.md#when-a-refund-ends-unpaid); an operator may give it back to the customer by reissuing it: a new
-- refund of the same deposit, one generation on, naming the one it replaces. One reissue per refund, ever.
alter table refunds add column generation integer not null default 1 check (generation >= 1);
alter table refunds add column reissue_of text unique references refunds (id);
alter table refunds add check ((generation = 1) = (reissue_of is null));

-- One automatic refund per deposit and generation: posting the deposit's refund again finds the first one.
drop index refunds_one_per_deposit;
create unique index refunds_one_per_deposit on refunds
  (deposit_chain, deposit_tx_hash, deposit_log_index, (source in ('underpaid_expired', 'settlement_failed')), generation)
  where source <> 'merchant';
