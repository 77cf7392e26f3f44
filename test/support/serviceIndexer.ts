// The EVM indexer of base's test network as production builds it, signalling a test service's Temporal: what the
// end-to-end tests that pay on the local chain run beside the service.
import { pino } from 'pino';
import type { ChainsConfig } from '../../config/chains';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import type { ChainIndexer } from '../../indexers/core/chainIndexer';
import { IndexerMetrics } from '../../indexers/core/metrics';
import { createTemporalSignalSender } from '../../indexers/core/signalSender';
import { buildEvmIndexer } from '../../indexers/evm/startEvmIndexers';
import type { TestService } from './service';

export function baseTestnetIndexer(service: TestService, config: ChainsConfig): ChainIndexer {
  return buildEvmIndexer(createChainRegistry(config).get('base', 'testnet'), {
    sql: service.db.sql,
    tuning: config.indexer,
    sender: createTemporalSignalSender(service.temporal, { namespace: service.config.temporal.namespace }),
    logger: pino({ level: 'silent' }),
    metrics: new IndexerMetrics(),
  });
}
