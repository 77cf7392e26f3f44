// The operator CLI: `npm run admin -- <group> <command> [options]` (or `checkout-admin …`). Reads
// DATABASE_URL and TEMPORAL_ADDRESS like the other processes; without DATABASE_URL, those of the `npm start`
// running here (bin/devState.ts). Errors are one line on stderr with a non-zero exit (2 for a malformed command
// line); `--json` prints results for scripts.
import { consoleIo, runAdmin } from './admin/runAdmin';

process.exitCode = await runAdmin(process.argv.slice(2), process.env, consoleIo);
