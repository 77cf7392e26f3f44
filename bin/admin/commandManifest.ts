// Written by `npm run admin-manifest` (bin/admin/writeCommandManifest.ts) from bin/admin/commandGroups.ts: what the
// CLI lists, parses and prints help from without loading any group.
import type { GroupSpec } from './commandLine';

export const COMMAND_MANIFEST: GroupSpec[] = [
  {
    name: 'merchant',
    summary: 'merchants',
    commands: [
      {
        name: 'create',
        summary: 'create a merchant',
        options: {
          name: { value: '<text>', description: 'display name (required)' },
          'settlement-wallet': { value: '<solana address>', description: 'where payments settle as USDC on Solana (required)' },
          'tolerance-bps': { value: '<n>', description: 'amount tolerance in basis points of the amount (default 50 = 0.5 %)' },
          'tolerance-min-cents': { value: '<n>', description: 'tolerance floor in US cents (default 1)' },
          'session-lifetime-minutes': { value: '<n>', description: 'time from creation to expires_at, 1 to 10080 (default 60)' },
          tokens: {
            value: '<pairs>',
            description: 'accepted pairs, e.g. "USDC:base,solana;USDT:tron" (default: every pair with a mainnet contract)',
          },
          'underpaid-expiry': {
            value: '<settle|refund>',
            description: 'a session still underpaid at expiry settles what arrived, or refunds it to the customer (default settle)',
          },
        },
      },
      {
        name: 'set-fee',
        summary: "set what the operator keeps of each of the merchant's treasury payouts from now on; written payouts keep theirs",
        positional: { name: 'merchant', value: '<mer_…>', description: 'the merchant' },
        options: {
          bps: { value: '<n>', description: "basis points of each payout's gross, 0 to 10000, rounded down to a base unit (required)" },
          'fixed-cents': { value: '<n>', description: 'US cents on top of it per payout (required; 0 for none)' },
        },
      },
    ],
  },
  {
    name: 'key',
    summary: 'merchant API keys',
    commands: [
      {
        name: 'create',
        summary: 'create an API key; the raw key is printed once and never stored',
        options: {
          merchant: { value: '<mer_…>', description: 'merchant the key acts for (required)' },
          mode: { value: 'test|live', description: 'mk_test_ keys simulate payments, mk_live_ keys take real ones (required)' },
          label: { value: '<text>', description: 'a note for operators, e.g. "production server"' },
        },
      },
      {
        name: 'list',
        summary: "list a merchant's API keys (prefix and last four characters only)",
        options: { merchant: { value: '<mer_…>', description: 'merchant (required)' } },
        readOnly: true,
      },
      {
        name: 'revoke',
        summary: 'revoke an API key; requests with it are refused (403) from then on',
        options: { key: { value: '<key_…>', description: 'key id, as `key list` shows it (required)' } },
      },
      {
        name: 'allow-ips',
        summary: 'restrict an API key to IP addresses and CIDR ranges (IPv4 or IPv6), or lift the restriction',
        options: {
          key: { value: '<key_…>', description: 'key id (required)' },
          ips: {
            value: '<list>',
            description: 'comma-separated addresses and ranges, e.g. 203.0.113.7,10.0.0.0/8,2001:db8::/32; replaces the current list',
          },
          clear: { description: 'allow the key from any address again' },
        },
      },
    ],
  },
  {
    name: 'webhook-secret',
    summary: 'webhook signing secrets',
    commands: [
      {
        name: 'rotate',
        summary: "replace a merchant's webhook signing secret for one mode; the new secret is printed once",
        options: {
          merchant: { value: '<mer_…>', description: 'merchant (required)' },
          mode: {
            value: 'test|live',
            description: 'which secret: test-mode and live-mode deliveries are signed with different ones (required)',
          },
          'overlap-hours': {
            value: '<0-168>',
            description:
              'how long deliveries also carry a signature with the secret being replaced, so receivers can switch at leisure (default 24; 0: the old secret stops at once, e.g. when it leaked)',
          },
        },
      },
    ],
  },
  {
    name: 'bank',
    summary: 'bank accounts and bank transfers',
    commands: [
      {
        name: 'add',
        summary: 'add an active bank account; customers of the merchant can then pay in its currency',
        options: {
          merchant: { value: '<mer_…>', description: 'merchant (required)' },
          currency: { value: '<ISO 4217>', description: 'e.g. EUR; one active account per currency (required)' },
          'account-name': { value: '<text>', description: 'account holder (required)' },
          'bank-name': { value: '<text>', description: '(required)' },
          iban: { value: '<iban>', description: 'checked with its check digits; give an IBAN or an account number' },
          'swift-bic': { value: '<bic>', description: '8 or 11 characters' },
          'account-number': { value: '<number>', description: 'domestic account number' },
          'sort-code': { value: '<nn-nn-nn>', description: 'UK sort code' },
        },
      },
      {
        name: 'deactivate',
        summary: 'stop offering a bank account: bank-currencies and bank-details no longer return it',
        options: { id: { value: '<ba_…>', description: 'bank account id (required)' } },
      },
      {
        name: 'list',
        summary: "list a merchant's bank accounts, active first",
        options: { merchant: { value: '<mer_…>', description: 'merchant (required)' } },
        readOnly: true,
      },
      {
        name: 'mark-received',
        summary: 'confirm that a bank transfer for a session arrived; the session workflow judges the amount',
        options: {
          session: { value: '<cs_…>', description: 'session the transfer pays (required)' },
          'amount-usd': { value: '<amount>', description: 'amount received, in USD, e.g. 25.50 (required)' },
          reference: {
            value: '<text>',
            description: "the reference on the bank statement; must contain the session's CS-… reference (required)",
          },
          force: {
            description: "credit a transfer whose reference does not contain the session's, once you have checked it is for this session",
          },
          by: { value: '<name>', description: 'who confirms it, kept with the receipt (default operator:<operator name>)' },
        },
      },
    ],
  },
  {
    name: 'webhooks',
    summary: 'webhook deliveries',
    commands: [
      {
        name: 'list',
        summary: "list a session's webhook deliveries with every attempt (status code, latency, error)",
        options: { session: { value: '<cs_…>', description: 'session (required)' } },
        readOnly: true,
      },
      {
        name: 'redeliver',
        summary: 'send a webhook delivery again; it keeps its wh_ id, which receivers use as idempotency key',
        options: { delivery: { value: '<wh_…>', description: 'delivery id, as `webhooks list` shows it (required)' } },
      },
    ],
  },
  {
    name: 'session',
    summary: 'checkout sessions',
    commands: [
      {
        name: 'cancel',
        summary: 'cancel a session no payment has arrived for (as the operator)',
        positional: { name: 'session', value: '<cs_…>', description: 'the session to cancel (required)' },
        options: { reason: { value: '<text>', description: 'why, kept in the session history (1 to 500 characters)' } },
      },
      {
        name: 'start-unstarted',
        summary: 'start the workflows of sessions whose create failed after writing them and was never retried',
        options: {
          'older-than-minutes': { value: '<n>', description: 'only sessions written at least this long ago (default 10)' },
          limit: { value: '<n>', description: 'at most this many sessions, oldest first (default 100, at most 1000)' },
          'dry-run': { description: 'list them, change nothing' },
        },
      },
    ],
  },
  {
    name: 'settlement',
    summary: 'treasury payouts to merchants',
    commands: [
      {
        name: 'list',
        summary: 'list treasury payouts, newest first; --stuck for those an operator must look at',
        options: {
          stuck: { description: 'only payouts awaiting liquidity, failed, or not confirmed after 2 minutes' },
          limit: { value: '<n>', description: 'at most this many (1 to 1000, default 50)' },
        },
        readOnly: true,
      },
      {
        name: 'show',
        summary: "one payment's payout, chain intent, settlements row and ledger entries",
        positional: { name: 'payment', value: '<pay_…>', description: 'the payment (required)' },
        options: {},
        readOnly: true,
      },
      {
        name: 'retry',
        summary: 'start settle_<pay_…> again when it failed or was terminated; never pays twice (one payout per payment, ever)',
        positional: { name: 'payment', value: '<pay_…>', description: 'the payment whose settlement to retry (required)' },
        options: {},
      },
      {
        name: 'resettle',
        summary: 'settle again a payment whose settlement was refused before any payout, once the cause is fixed; idempotent',
        positional: { name: 'payment', value: '<pay_…>', description: 'the payment to settle again (required)' },
        options: {},
      },
      {
        name: 'repay',
        summary: 'pay a payout that landed and failed again, under a new payout generation (--confirm), and settle its session',
        positional: { name: 'payment', value: '<pay_…>', description: 'the payment whose failed payout to pay again (required)' },
        options: {
          confirm: { description: 'the operator has decided to pay it again from the treasury (required to start a generation)' },
        },
      },
      {
        name: 'refund',
        summary:
          'give a failed settlement with no payout back to the customer (--confirm): one settlement_failed refund per credited deposit',
        positional: { name: 'payment', value: '<pay_…>', description: 'the failed payment whose deposits to refund (required)' },
        options: {
          confirm: { description: 'the operator has decided the merchant is not paid and the customer gets the money back (required)' },
        },
      },
      {
        name: 'awaiting-approval',
        summary: "live payouts held above their merchant's daily limit (SETTLEMENT_DAILY_LIMIT_USDC) until an operator approves",
        options: {},
        readOnly: true,
      },
      {
        name: 'approve',
        summary: "approve a live payout held above its merchant's daily limit: the signer writes it at its next attempt; idempotent",
        options: { payment: { value: '<pay_…>', description: 'the live payment whose payout to approve (required)' } },
      },
    ],
  },
  {
    name: 'refund',
    summary:
      'refunds to customers: list, show, the stuck ones, cancelling one not yet paid, reissuing one that ended unpaid, opening the missing ones',
    commands: [
      {
        name: 'list',
        summary: 'list refunds newest first, by merchant, status or session',
        options: {
          merchant: { value: '<mer_…>', description: 'only this merchant' },
          mode: { value: '<test|live>', description: 'only this mode' },
          status: { value: '<pending_claim|claimed|submitted|completed|failed|expired|cancelled>', description: 'only this status' },
          source: {
            value: '<source>',
            description:
              'only this source (merchant, overpayment, late_deposit, wrong_token, wrong_chain, dust, underpaid_expired, settlement_failed)',
          },
          session: { value: '<cs_…>', description: 'only the refunds of this session' },
          limit: { value: '<n>', description: 'at most this many (1 to 1000, default 50)' },
        },
        readOnly: true,
      },
      {
        name: 'show',
        summary: "one refund: its row, the signer's payment of it and its ledger postings, each group in words",
        positional: { name: 'refund', value: '<ref_…>', description: 'the refund (required)' },
        options: {},
        readOnly: true,
      },
      {
        name: 'stuck',
        summary: 'refunds claimed over an hour ago (--older-than) whose payment has not landed, oldest first',
        options: {
          'older-than': { value: '<minutes>', description: 'how long after its claim a refund not paid counts as stuck (default 60)' },
          limit: { value: '<n>', description: 'at most this many (1 to 1000, default 50)' },
        },
        readOnly: true,
      },
      {
        name: 'cancel',
        summary: 'cancel a refund the signer has not started paying, and tell its workflow',
        positional: { name: 'refund', value: '<ref_…>', description: 'the refund to cancel (required)' },
        options: { reason: { value: '<text>', description: 'why, kept as its status reason (1 to 500 characters)' } },
      },
      {
        name: 'reissue',
        summary: 'give an automatic refund that ended unpaid (failed, expired, cancelled) back to the customer as a new refund',
        positional: { name: 'refund', value: '<ref_…>', description: 'the refund that ended unpaid (required)' },
        options: {},
      },
      {
        name: 'open-missing',
        summary: 'open the refunds of deposits kept for a refund that have none (late after the workflow ended), and start them',
        options: {
          mode: { value: '<test|live>', description: 'only this mode (default both)' },
          'dry-run': { description: 'list the deposits, change nothing' },
        },
      },
    ],
  },
  {
    name: 'sweep',
    summary: 'deposit sweeps: Solana into the treasury, EVM and Tron forwarders into the collector',
    commands: [
      {
        name: 'list',
        summary: 'list Solana and forwarder (EVM, Tron) deposit sweeps, newest first, with what each moved',
        options: {
          mode: { value: '<test|live>', description: 'only this mode' },
          limit: { value: '<n>', description: 'at most this many (1 to 1000, default 50)' },
        },
        readOnly: true,
      },
      {
        name: 'run',
        summary: "sweep one mode's settled Solana deposit accounts into its treasury now, beside the schedule",
        options: { mode: { value: '<test|live>', description: 'the mode whose deposits and treasury (required)' } },
      },
      {
        name: 'now',
        summary: "trigger a chain's forwarder sweep schedule now (sweep_evm_<chain>_<token>_<mode>, sweep_tron_<token>_<mode>)",
        options: {
          chain: { value: '<ethereum|polygon|arbitrum|optimism|base|bsc|tron>', description: 'the EVM chain, or tron (required)' },
          token: { value: '<USDC|USDT>', description: 'the token (required)' },
          mode: { value: '<test|live>', description: 'the mode (required)' },
        },
      },
      {
        name: 'failures',
        summary: 'list forwarder addresses whose sweep reverts in simulation, with their count and last revert',
        options: {},
        readOnly: true,
      },
      {
        name: 'clear-failure',
        summary: "forget a forwarder address's failed sweep simulations, so the next plan takes it again",
        options: {
          chain: { value: '<ethereum|polygon|arbitrum|optimism|base|bsc|tron>', description: 'the EVM chain, or tron (required)' },
          token: { value: '<USDC|USDT>', description: 'the token (required)' },
          mode: { value: '<test|live>', description: 'the mode (required)' },
          address: { value: '<address>', description: 'the deposit address, as sweep failures lists it (required)' },
        },
      },
    ],
  },
  {
    name: 'transfer',
    summary: 'CCTP transfers from the EVM collectors to the Solana treasury',
    commands: [
      {
        name: 'list',
        summary: 'list CCTP transfers newest first; --stuck: those in flight whose stage has not moved for a while, oldest first',
        options: {
          mode: { value: '<test|live>', description: 'only this mode' },
          stuck: { description: 'only transfers in flight whose stage has not moved for --older-than minutes (default 60)' },
          'older-than': {
            value: '<minutes>',
            description: 'with --stuck: the stage age that counts as stuck (0 lists every transfer in flight)',
          },
          limit: { value: '<n>', description: 'at most this many (1 to 1000, default 50)' },
        },
        readOnly: true,
      },
      {
        name: 'show',
        summary: "one CCTP transfer's stages, chain intents, hashes, nonce, amounts and ledger entries",
        positional: { name: 'transfer', value: '<tr_…>', description: 'the transfer (required)' },
        options: {},
        readOnly: true,
      },
    ],
  },
  {
    name: 'treasury',
    summary: "the Solana USDC treasury, as the payouts see it, and operators' funding of it and of the relayers",
    commands: [
      {
        name: 'status',
        summary:
          'per mode: the on-chain balance at the last reconciliation, USDC reserved by unconfirmed payouts, payouts waiting by status and the oldest',
        options: {},
        readOnly: true,
      },
      {
        name: 'record-funding',
        summary:
          "record in the ledger a transaction that moved USDC or SOL into or out of a mode's treasury outside the service, as the chain shows it",
        options: {
          mode: { value: '<test|live>', description: 'the treasury it funded' },
          signature: { value: '<signature>', description: 'the landed transaction (base58); recording it again changes nothing' },
        },
      },
      {
        name: 'record-relayer-funding',
        summary:
          "record in the ledger an operator's transaction that paid a mode's relayer its gas coin on an EVM chain or Tron, as the chain shows it",
        options: {
          mode: { value: '<test|live>', description: 'the relayer it funded' },
          chain: { value: '<ethereum|polygon|arbitrum|optimism|base|bsc|tron>', description: 'where it landed' },
          tx: {
            value: '<hash>',
            description: 'the landed transaction (0x… on EVM chains, 64 hex digits on Tron); recording it again changes nothing',
          },
        },
      },
    ],
  },
  {
    name: 'routes',
    summary: "each pair's route back to the treasury and what it lacks",
    commands: [
      {
        name: 'show',
        summary: "each pair's route back to the treasury, ✓ when offered and brought back, ✗ with what it lacks (checkout-admin routes)",
        options: { mode: { value: '<test|live>', description: 'the mode to judge (default live)' } },
        readOnly: true,
      },
    ],
  },
  {
    name: 'tron',
    summary: "the Tron relayer's energy and TRX",
    commands: [
      {
        name: 'resources',
        summary: "the mode's Tron relayer: energy available and used, TRX staked for energy, TRX balance, and the energy a sweep needs",
        options: { mode: { value: '<test|live>', description: "the relayer's mode (required)" } },
        readOnly: true,
      },
    ],
  },
  {
    name: 'inventory',
    summary: 'held inventory (bsc, Tron and Solana USDT): exposure, withdrawals to the rebalancing address, USDC back in the treasury',
    commands: [
      {
        name: 'status',
        summary:
          'per held pair: held in the collector (ledger, and on chain at the last reconciliation), exposure and its cap, in flight to the rebalancing address, recent withdrawals',
        options: { mode: { value: '<test|live>', description: 'one mode (default both)' } },
        readOnly: true,
      },
      {
        name: 'withdraw',
        summary:
          "move a held pair's tokens from the chain's collector to INVENTORY_REBALANCE_ADDRESS_<CHAIN>_<MODE> through the signer (written ahead, posted once final)",
        positional: { name: 'pair', value: '<TOKEN:chain>', description: 'the held pair: USDC:bsc, USDT:bsc or USDT:tron (required)' },
        options: {
          amount: { value: '<amount|all>', description: 'tokens, e.g. 2500.5, or all the ledger holds in the collector (required)' },
          mode: { value: '<test|live>', description: 'whose collector (required)' },
        },
      },
      {
        name: 'record-rebalanced',
        summary:
          'record the USDC a rebalancing brought back to the treasury, as the Solana transaction shows it: rebalancing:<chain> closes, the exchange difference is posted',
        positional: { name: 'chain', value: '<bsc|tron|solana>', description: 'whose rebalancing it closes (required)' },
        options: {
          usdc: { value: '<amount>', description: "the USDC the treasury received, e.g. 9985.2; must be the transaction's (required)" },
          signature: { value: '<signature>', description: 'the Solana transaction that paid the treasury (required)' },
          mode: { value: '<test|live>', description: 'whose treasury (required)' },
        },
      },
    ],
  },
  {
    name: 'ledger',
    summary: "the double-entry ledger: its reconciliation with the chain, and where one payment's units are",
    commands: [
      {
        name: 'reconcile',
        summary:
          'compare the ledger with the chain per mode now (or show the last run) and print the differences; exit 3 when there are any',
        options: { last: { description: 'print the last stored run of each mode instead of reading the chain' } },
        readOnly: true,
      },
      {
        name: 'explain',
        summary: 'every ledger posting of one payment (by its session or payment id) and, per asset, where its units are now',
        positional: { name: 'id', value: '<cs_…|pay_…>', description: 'the session or its payment (required)' },
        options: {},
        readOnly: true,
      },
    ],
  },
  {
    name: 'report',
    summary: 'statements and reports',
    commands: [
      {
        name: 'statement',
        summary: "a merchant's monthly statement from the ledger: received, fees, netting, paid out, refunds, held",
        positional: { name: 'merchant', value: '<mer_…>', description: 'the merchant' },
        options: {
          month: { value: '<YYYY-MM>', description: 'the calendar month, UTC (required)' },
          mode: { value: 'test|live', description: 'whose books (default live)' },
          csv: { description: 'print CSV (merchant_id,mode,month,line,amount_usdc) instead of a table' },
        },
        readOnly: true,
      },
      {
        name: 'assets',
        summary: 'per asset by the ledger: treasury, collector and deposit balances, in flight, gas spent, revenue',
        options: { mode: { value: 'test|live', description: 'whose books (default live)' } },
        readOnly: true,
      },
    ],
  },
  {
    name: 'user',
    summary: 'merchant dashboard users',
    commands: [
      {
        name: 'invite',
        summary: 'invite a dashboard user of a merchant; prints a one-time sign-up link (valid 7 days)',
        options: {
          merchant: { value: '<mer_…>', description: 'merchant the user belongs to (required)' },
          email: { value: '<address>', description: "the user's email address, their sign-in name (required)" },
        },
      },
      {
        name: 'reset-totp',
        summary: "remove a dashboard user's TOTP enrolment and sign them out everywhere; they sign in with their password and enrol again",
        options: { email: { value: '<address>', description: "the user's email address, their sign-in name (required)" } },
      },
    ],
  },
  {
    name: 'retention',
    summary: 'retention of expired rows',
    commands: [
      {
        name: 'purge',
        summary: 'delete expired quotes, rate-limit counters, idempotency keys and old webhook attempts now (RETENTION_* ages)',
        options: {},
      },
    ],
  },
  {
    name: 'audit',
    summary: "the admin CLI's audit trail",
    commands: [
      {
        name: 'list',
        summary: 'list audited admin commands, newest first: operator, command, arguments (secrets redacted), targets, outcome',
        options: {
          since: { value: '<date|time>', description: 'only commands from then on, e.g. 2025-01-31 or 2025-01-31T09:00:00Z' },
          limit: { value: '<n>', description: 'at most this many, 1 to 1000 (default 50)' },
        },
        readOnly: true,
      },
    ],
  },
];
