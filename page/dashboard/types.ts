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
