// Whether a CCTP V2 message was already received on Solana, read as MessageTransmitterV2's own `is_nonce_used`
// decides it (circlefin/solana-cctp-contracts `instructions/is_nonce_used.rs`): no data at the used_nonce PDA ⇒
// not used; otherwise the account must be the program's UsedNonce and its is_used flag answers. receive_message
// creates that account (`init`), so sending a used nonce again only fails and costs the fee: check first.
import type { GetAccountInfoApi, Rpc } from '@solana/kit';
import { MESSAGE_TRANSMITTER_V2_PROGRAM, USED_NONCE_ACCOUNT_DISCRIMINATOR, usedNoncePda } from '../../domain/cctp/receiveMessageAccounts';

export async function isNonceUsed(rpc: Rpc<GetAccountInfoApi>, nonce: Uint8Array): Promise<boolean> {
  const { value } = await rpc.getAccountInfo(await usedNoncePda(nonce), { encoding: 'base64' }).send();
  if (!value) return false;
  const data = Buffer.from(value.data[0], 'base64');
  if (data.length === 0) return false;
  if (
    value.owner !== MESSAGE_TRANSMITTER_V2_PROGRAM ||
    USED_NONCE_ACCOUNT_DISCRIMINATOR.some((byte, i) => data[i] !== byte) ||
    data.length < 9
  ) {
    throw new Error('the used_nonce address holds an account that is not MessageTransmitterV2 UsedNonce');
  }
  return data[8] !== 0;
}
