-- A refund's customer e-mail (docs/refunds.md#e-mail-to-the-customer), an optional extension of a merchant's refund.
-- Only the address is kept: the claim link is a bearer credential, made and e-mailed by the API alone.
alter table refunds add column customer_email text check (length(customer_email) <= 254);
-- When each e-mail went out: each kind is sent once per refund (a crash between the send and this stamp may repeat it).
alter table refunds add column claim_emailed_at timestamptz;
alter table refunds add column reminder_emailed_at timestamptz;
