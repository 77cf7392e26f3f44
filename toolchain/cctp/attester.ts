// Stand-in for Circle's attesters: one fixed secp256k1 test key (Hardhat's published account #1), shared by the
// local attestation server, which signs with it, and the local Solana receive stand-in, which checks against its
// address. Public knowledge by design; nothing outside local chains may trust it.
import type { Address, Hex } from 'viem';

export const LOCAL_ATTESTER_PRIVATE_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
export const LOCAL_ATTESTER_ADDRESS: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
