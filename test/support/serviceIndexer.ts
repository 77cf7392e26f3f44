// The EVM indexer of base's (or another EVM chain's) test network as production builds it, signalling a test service's Temporal: what the
// end-to-end tests that pay on the local chain run beside the service.
import { pino } from 'pino';
import type { ChainsConfig } from '../../config/chains';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import type { Chain } from '../../domain/chains/chains';
import type { ChainIndexer } from '../../indexers/core/chainIndexer';
import { IndexerMetrics } from '../../indexers/core/metrics';
import { createTemporalSignalSender } from '../../indexers/core/signalSender';
import { buildEvmIndexer } from '../../indexers/evm/startEvmIndexers';
import type { TestService } from './service';

export function baseTestnetIndexer(service: TestService, config: ChainsConfig): ChainIndexer {
  return testnetIndexer(service, config, 'base');
}

/** Another EVM chain's test network served by the same local node: the same addresses, another chain to the service. */
export function testnetIndexer(service: TestService, config: ChainsConfig, chain: Chain): ChainIndexer {
  return buildEvmIndexer(createChainRegistry(config).get(chain, 'testnet'), {
    sql: service.db.sql,
    tuning: config.indexer,
    sender: createTemporalSignalSender(service.temporal, { namespace: service.config.temporal.namespace }),
    logger: pino({ level: 'silent' }),
    metrics: new IndexerMetrics(),
  });
}
