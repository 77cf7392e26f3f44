// Under root the embedded server runs as the `postgres` user, which must walk every directory above its binaries
// (node_modules) and its data directory. A clone made under `mktemp -d` (0700) or a 0700 home blocks that walk, and
// initdb then fails with a bare EACCES. Granting others the search bit (o+x) lets `postgres` pass through a
// directory by name without being able to list or read it.
import { chmodSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const OTHERS_SEARCH = 0o001;

/** `path` and each directory above it, up to the root, that others cannot pass through. */
export function directoriesBlockingOthers(path: string): string[] {
  const blocking: string[] = [];
  for (let current = resolve(path); ; current = dirname(current)) {
    if ((statSync(current).mode & OTHERS_SEARCH) === 0) blocking.push(current);
    if (dirname(current) === current) return blocking;
  }
}

/** Adds o+x to every directory that blocks the way to `path`; returns the directories it changed. */
export function makeTraversableByOthers(path: string): string[] {
  const blocking = directoriesBlockingOthers(path);
  for (const directory of blocking) chmodSync(directory, statSync(directory).mode | OTHERS_SEARCH);
  return blocking;
}
