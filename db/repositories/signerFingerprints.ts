// signer_fingerprints (db/migrations/0008_signer_fingerprints.sql): the signer writes its mode's row at start, the
// worker reads it before handing out a live address from its xpubs.
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

/** The fingerprint the signer of `mode` last published; the previous one, when it differed. */
export async function publishXpubFingerprint(sql: Queryable, mode: Mode, fingerprint: string): Promise<{ previous: string | undefined }> {
  const [row] = await sql<{ previous: string | null }[]>`
    with old as (select xpub_fingerprint from signer_fingerprints where mode = ${mode})
    insert into signer_fingerprints (mode, xpub_fingerprint) values (${mode}, ${fingerprint})
    on conflict (mode) do update set xpub_fingerprint = excluded.xpub_fingerprint, published_at = now()
    returning (select xpub_fingerprint from old) as previous`;
  return { previous: row?.previous ?? undefined };
}

export async function publishedXpubFingerprint(sql: Queryable, mode: Mode): Promise<string | undefined> {
  const [row] = await sql<{ xpub_fingerprint: string }[]>`select xpub_fingerprint from signer_fingerprints where mode = ${mode}`;
  return row?.xpub_fingerprint;
}
