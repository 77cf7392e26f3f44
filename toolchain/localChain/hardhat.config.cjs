// Read only by `hardhat node --config` (hardhatNode.ts). CommonJS because the package is "type": "module" and
// Hardhat 2 loads its config with require().
/** @type {import('hardhat/config').HardhatUserConfig} */
module.exports = {
  networks: {
    hardhat: {
      // hardhatNode.ts sets it for a second local chain; 31337 otherwise, Hardhat's own.
      chainId: Number(process.env.HARDHAT_LOCAL_CHAIN_ID ?? 31337),
      // Per-request logging slows the node and floods the pipe; the harness keeps only an output tail for errors.
      loggingEnabled: false,
      mining: { auto: true, interval: 0 },
    },
  },
};
