// The API reads the same chain registry as select-payment and the indexers: a deployment that points a test
// network at its own chain and token (as `npm start` does with its local Hardhat chain) shows that contract in
// GET /checkout/tokens and prices it in GET /checkout/quote, with the configured decimals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuoteResponse } from '../../domain/wire/quote';
import { TokenListResponse } from '../../domain/chains/tokenCatalog';
import { TOKEN_CONTRACTS } from '../../domain/chains/tokenContracts';
import { createTestMerchant, type TestMerchant } from '../support/factories';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

const LOCAL_TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3';

let service: TestService;
let merchant: TestMerchant;

beforeAll(async () => {
  service = await startTestService({
    worker: false,
    // Sepolia has no published USDT; this deployment brings its own, on a chain with id 31337, in 18 decimals.
    env: { CHAIN_ID_ETHEREUM_TESTNET: '31337', TOKEN_USDT_ETHEREUM_TESTNET: `${LOCAL_TOKEN}:18` },
  });
  merchant = await createTestMerchant(service.db.sql);
});
afterAll(() => service?.stop());

describe('configured token contracts in the API', () => {
  it('GET /checkout/tokens shows the configured contract and chain id as such, the published ones as before', async () => {
    expect(TOKEN_CONTRACTS.USDT.ethereum.testnet).toBeNull();
    const response = await call(service.baseUrl, 'GET', '/checkout/tokens?chain=ethereum', { apiKey: merchant.testKey });
    expect(response.status).toBe(200);
    const { tokens } = TokenListResponse.parse(response.body.data);
    const usdt = tokens.find((t) => t.symbol === 'USDT');
    const usdc = tokens.find((t) => t.symbol === 'USDC');
    expect(usdt?.testnet).toEqual({
      network: 'chain 0x7a69 configured by this deployment (in place of Sepolia)',
      chain_id: '0x7a69',
      contract: {
        address: LOCAL_TOKEN,
        decimals: 18,
        canonical: false,
        note: "Configured by this deployment, not the issuer's published contract.",
      },
    });
    expect(usdc?.testnet.contract).toMatchObject({ address: TOKEN_CONTRACTS.USDC.ethereum.testnet?.address, canonical: true });
    expect(usdt?.mainnet).toMatchObject({ address: TOKEN_CONTRACTS.USDT.ethereum.mainnet?.address, decimals: 6, canonical: true });
  });

  it('GET /checkout/quote prices the configured token in its own decimals', async () => {
    const response = await call(service.baseUrl, 'GET', '/checkout/quote?amount_usd=12.34&token=USDT&chain=ethereum', {
      apiKey: merchant.testKey,
    });
    expect(response.status).toBe(200);
    expect(QuoteResponse.parse(response.body.data)).toMatchObject({
      token_amount: '12.340000',
      token_amount_base_units: '12340000000000000000',
      decimals: 18,
    });
  });
});
