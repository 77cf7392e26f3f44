// What the dashboard's JSON API answers, as the page reads it.
export type Mode = 'test' | 'live';

export interface Me {
  user: { id: string; email: string; totp_enabled: boolean };
  merchant: { id: string; name: string };
  csrf_token: string;
}

/** One screen: its main-area content, a name for tests and styling, and the document title. */
export interface View {
  name: string;
  title: string;
  element: HTMLElement;
}

export interface ApiKeyRow {
  key_id: string;
  key: string;
  label: string | null;
  allowed_ips: string[] | null;
  created_at: string;
  revoked_at: string | null;
}

/** A refund as the dashboard's API answers it (api/dashboard/refundJson.ts). */
export interface RefundRow {
  refund_id: string;
  session_id: string;
  status: string;
  status_reason: string | null;
  source: string;
  /** USD to the micro-unit, e.g. "2.500000". */
  amount_usd: string;
  deposit: { chain: string; tx_hash: string; log_index: number } | null;
  destination: { chain: string; token: string; address: string } | null;
  reason: string | null;
  transaction_hash: string | null;
  explorer_url: string | null;
  created_at: string;
}
