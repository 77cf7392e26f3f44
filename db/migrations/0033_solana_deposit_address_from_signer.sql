-- Solana deposit addresses derive from the seed along a hardened-only path, so only the signer worker can compute
-- them (docs/settlement.md#r4-keys-in-the-signer-alone). The worker reserves a session's index and writes its EVM and
-- Tron addresses (from xpubs) at once; the Solana address is written once, when a Solana pair is first chosen, and
-- never changes.
alter table deposit_addresses alter column solana_address drop not null;
