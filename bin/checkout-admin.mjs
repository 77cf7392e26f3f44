#!/usr/bin/env node
// `checkout-admin` (package.json "bin"): the admin CLI of bin/admin.ts, run through tsx from wherever
// it is linked. Node resolves the link, so tsx and admin.ts are found beside the real file.
import { register } from 'tsx/esm/api';

register();
await import('./admin.ts');
