// The JSON-RPC reads of chain height and account state, in a Solana node's shapes: getBlockHeight and
// getLatestBlockhash per commitment (`finalized` reads the block FINALITY_DEPTH blocks under the tip), getBalance,
// getAccountInfo (base64), getTokenAccountBalance and getMinimumBalanceForRentExemption. Account reads answer from
// the newest state (what `processed` sees) whatever the commitment: the tests never need older account state.
import { getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { address, type Address } from '@solana/kit';
import { MAX_PROCESSING_AGE, type LocalBlock, type LocalSolanaChain } from './localSolanaChain';
import { commitmentOf, RpcFailure } from './rpcFailure';
import { uiAmountString } from './tokenBalances';

const TOKEN_ACCOUNT_SIZE = 165;

function blockAt(chain: LocalSolanaChain, config: unknown): LocalBlock {
  return commitmentOf(config) === 'finalized' ? chain.finalizedBlock() : chain.tipBlock();
}

function accountAddress(value: unknown): Address {
  try {
    return address(String(value));
  } catch {
    throw new RpcFailure(-32602, 'Invalid param: Invalid');
  }
}

/** The answer to `method`, or undefined when this module does not serve it. */
export function answerAccounts(chain: LocalSolanaChain, method: string, params: unknown[]): { result: unknown } | undefined {
  const context = { slot: Number(chain.tip()) };
  switch (method) {
    case 'getBlockHeight':
      return { result: blockAt(chain, params[0]).blockHeight };
    case 'getLatestBlockhash': {
      const block = blockAt(chain, params[0]);
      return { result: { context, value: { blockhash: block.blockhash, lastValidBlockHeight: block.blockHeight + MAX_PROCESSING_AGE } } };
    }
    case 'getBalance':
      return { result: { context, value: Number(chain.svm.getBalance(accountAddress(params[0])) ?? 0n) } };
    case 'getMinimumBalanceForRentExemption':
      return { result: Number(chain.svm.minimumBalanceForRentExemption(BigInt(Number(params[0])))) };
    case 'getAccountInfo': {
      const account = chain.svm.getAccount(accountAddress(params[0]));
      const encoding = (params[1] as { encoding?: string } | undefined)?.encoding;
      if (encoding !== 'base64') throw new RpcFailure(-32602, 'Invalid params: this test node serves encoding base64 only');
      if (!account.exists) return { result: { context, value: null } };
      return {
        result: {
          context,
          value: {
            data: [Buffer.from(account.data).toString('base64'), 'base64'],
            executable: account.executable,
            lamports: Number(account.lamports),
            owner: account.programAddress,
            rentEpoch: 0,
            space: account.data.length,
          },
        },
      };
    }
    case 'getTokenAccountBalance': {
      const account = chain.svm.getAccount(accountAddress(params[0]));
      if (!account.exists) throw new RpcFailure(-32602, 'Invalid param: could not find account');
      if (account.programAddress !== TOKEN_PROGRAM_ADDRESS || account.data.length !== TOKEN_ACCOUNT_SIZE) throw new RpcFailure(-32602, 'Invalid param: not a Token account');
      const token = getTokenDecoder().decode(account.data);
      const mint = chain.svm.getAccount(token.mint);
      if (!mint.exists) throw new RpcFailure(-32602, 'Invalid param: could not find mint');
      const { decimals } = getMintDecoder().decode(mint.data);
      const text = uiAmountString(token.amount, decimals);
      return { result: { context, value: { amount: token.amount.toString(), decimals, uiAmount: Number(text), uiAmountString: text } } };
    }
    default:
      return undefined;
  }
}
