-- An operator's approval of a live payout above the merchant's daily limit (docs/settlement.md#daily-limit): written by
-- `checkout-admin settlement approve` as the schema owner, read by the signer, which writes the payout of an approved
-- payment whatever the merchant was paid in the trailing 24 hours. One per payment; an approval is never withdrawn
-- by the service (the payout it let through is kept in `payouts`).
create table payout_approvals (
  payment_id  text primary key references payments (id),
  operator    text not null check (length(operator) between 1 and 100),
  approved_at timestamptz not null default now()
);
