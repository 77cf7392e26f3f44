-- Bank accounts a merchant (its organisation) accepts bank transfers into (spec 4.6, 4.7).
create table bank_accounts (
  id              text primary key check (id like 'ba\_%'),
  merchant_id     text not null references merchants (id),
  account_name    text not null check (account_name <> ''),
  bank_name       text not null check (bank_name <> ''),
  iban            text,
  swift_bic       text,
  account_number  text,
  sort_code       text,
  currency        text not null check (currency ~ '^[A-Z]{3}$'),
  active          boolean not null default true,
  created_at      timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  -- A customer must be able to pay the account: either an IBAN or a domestic account number.
  check (iban is not null or account_number is not null)
);

-- One active account per currency, so the account a customer is told to pay is never a guess.
create unique index bank_accounts_active_currency on bank_accounts (merchant_id, currency) where active;
