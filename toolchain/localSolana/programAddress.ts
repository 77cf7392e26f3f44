// Solana's program-derived address, computed synchronously (sha256 of the seeds, the bump, the program id and
// "ProgramDerivedAddress"; the first bump from 255 down whose hash is off the ed25519 curve), for code that cannot
// await @solana/kit's getProgramDerivedAddress: the local chain executes transactions synchronously.
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { getAddressDecoder, getAddressEncoder, getUtf8Encoder, type Address } from '@solana/kit';

const MARKER = getUtf8Encoder().encode('ProgramDerivedAddress');

function onCurve(bytes: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(bytes);
    return true;
  } catch {
    return false;
  }
}

export function findProgramAddressSync(program: Address, seeds: (string | Uint8Array)[]): Address {
  const encoded = seeds.map((seed) => (typeof seed === 'string' ? Uint8Array.from(getUtf8Encoder().encode(seed)) : seed));
  for (let bump = 255; bump >= 0; bump--) {
    const hash = sha256(new Uint8Array([...encoded.flatMap((seed) => [...seed]), bump, ...getAddressEncoder().encode(program), ...MARKER]));
    if (!onCurve(hash)) return getAddressDecoder().decode(hash);
  }
  throw new Error('no bump gives an address off the curve');
}
