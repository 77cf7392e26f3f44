// The one-shot `temporal-certs` service of docker-compose.yml: `npm run temporal-certs -- <root>` makes the CAs and
// the certificates of Temporal's mutual TLS under <root> once, renews those expiring within 30 days, and exits
// (config/temporalCertificates.ts, docs/operations.md#temporal-mtls). Compose runs it as root so that each key
// can be handed to the user its container runs as.
import { ensureTemporalCertificates, type TemporalIdentity } from '../config/temporalCertificates';

/** The node image's `node`, the Temporal server and admin-tools images' `temporal`; the UI image's `temporal` is 5000. */
const CONTAINER_UIDS: Partial<Record<TemporalIdentity, number>> = {
  temporal: 1000,
  api: 1000,
  worker: 1000,
  'webhook-worker': 1000,
  'signer-test': 1000,
  'signer-live': 1000,
  indexer: 1000,
  admin: 1000,
  'temporal-ui': 5000,
  'temporal-admin-tools': 1000,
};

const root = process.argv[2];
if (!root) {
  console.error('usage: npm run temporal-certs -- <folder>');
  process.exit(2);
}
const asRoot = process.getuid?.() === 0;
const issued = ensureTemporalCertificates(root, asRoot ? { owners: CONTAINER_UIDS } : {});
console.log(issued.length > 0 ? `issued: ${issued.join(', ')}` : 'every certificate is in place');
