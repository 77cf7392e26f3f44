-- What the hosted page needs to show a chosen payment again after a reload, without asking the workflow
-- (reads never depend on a worker): the token contract the customer pays in and, on EVM chains, the chain
-- id of its network. With them the API re-derives the payment URI (domain/chains/paymentUri.ts) for any amount,
-- the full one and, after an underpayment, the rest still due. Rows written before this migration have
-- neither; the page then offers the choice again, and choosing rewrites the row.
alter table payments
  add column token_address text,
  add column evm_chain_id  integer;
