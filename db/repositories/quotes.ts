import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import { newQuoteId } from '../../domain/wire/ids';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

export interface Quote {
  id: string;
  mode: Mode;
  sessionId: string | null;
  token: TokenSymbol;
  chain: Chain;
  amountUsdCents: bigint;
  tokenBaseUnits: bigint;
  decimals: number;
  rate: string;
  priceSource: string;
  expiresAt: Date;
  createdAt: Date;
}

export type NewQuote = Omit<Quote, 'id' | 'createdAt'>;

export async function insertQuote(sql: Queryable, quote: NewQuote): Promise<Quote> {
  const id = newQuoteId();
  const [row] = await quoteInsert(sql, id, quote);
  return { ...quote, id, createdAt: row!.created_at as Date };
}

/** The insert alone, under an id chosen by the caller, for statements sent along with it (db/client.ts pipelined). */
export function quoteInsert(sql: Queryable, id: string, quote: NewQuote) {
  return sql`
    insert into quotes (id, mode, session_id, token, chain, amount_usd_cents, token_base_units, decimals, rate, price_source, expires_at)
    values (${id}, ${quote.mode}, ${quote.sessionId}, ${quote.token}, ${quote.chain}, ${quote.amountUsdCents.toString()},
            ${quote.tokenBaseUnits.toString()}, ${quote.decimals}, ${quote.rate}, ${quote.priceSource}, ${quote.expiresAt})
    returning created_at`;
}
