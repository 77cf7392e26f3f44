// A local Solana chain whose treasury received USDC by a transaction (a top-up the service did not make), and the
// variables that point the admin CLI at it: for the CLI tests of reconciliation and funding records.
import { generateKeyPairSigner, type Address } from '@solana/kit';
import { envSuffix } from '../../config/chains';
import { LocalSolanaChain } from '../../toolchain/localSolana/localSolanaChain';
import { startSolanaRpcServer } from '../../toolchain/localSolana/solanaRpcServer';
import { createMint, mintTo } from '../../toolchain/localSolana/splToken';

export interface TreasuryChain {
  treasury: Address;
  /** The top-up's landed transaction. */
  topUp: string;
  /** RPC_URLS_ and TOKEN_USDC_ of solana testnet, and SOLANA_TREASURY_ADDRESS_TEST. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startTreasuryChain(usdcTopUp: bigint): Promise<TreasuryChain> {
  const chain = new LocalSolanaChain();
  const rpcServer = await startSolanaRpcServer(chain);
  const usdc = await createMint(chain, 6);
  const treasury = (await generateKeyPairSigner()).address;
  const { signature } = await mintTo(chain, usdc, treasury, usdcTopUp);
  chain.produce();
  const suffix = envSuffix('solana', 'testnet');
  return {
    treasury,
    topUp: signature,
    env: { [`RPC_URLS_${suffix}`]: rpcServer.url, [`TOKEN_USDC_${suffix}`]: `${usdc.address}:6`, SOLANA_TREASURY_ADDRESS_TEST: treasury },
    stop: () => rpcServer.close(),
  };
}
