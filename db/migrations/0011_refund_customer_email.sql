-- A refund's customer e-mail (docs/refunds.md#e-mail-to-the-customer), an optional extension of a merchant's refund.
-- The claim link is the API's to make (only it holds SESSION_TOKEN_SECRET), so it keeps the link of a refund with an
-- address for the worker that e-mails it; a refund without an address keeps neither.
alter table refunds add column customer_email text check (length(customer_email) <= 254);
alter table refunds add column customer_claim_url text;
alter table refunds add check ((customer_email is null) = (customer_claim_url is null));
-- When each e-mail went out: each kind is sent once per refund (a crash between the send and this stamp may repeat it).
alter table refunds add column claim_emailed_at timestamptz;
alter table refunds add column reminder_emailed_at timestamptz;
