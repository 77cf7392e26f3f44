// The admin CLI lists, parses and explains its commands from a manifest written from the command groups, and
// runs each through its group's loader: both must stay what the groups say, or help and behaviour part ways.
import { describe, expect, it } from 'vitest';
import { GROUP_SPECS, GROUPS } from '../../bin/admin/commandGroups';
import { COMMAND_MANIFEST } from '../../bin/admin/commandManifest';
import { GROUP_LOADERS } from '../../bin/admin/groupLoaders';

describe('admin command manifest', () => {
  it('is what the command groups define (else: npm run admin-manifest)', () => {
    expect(COMMAND_MANIFEST).toStrictEqual(GROUP_SPECS);
  });

  it('loads every group by its name, and nothing else', async () => {
    expect(Object.keys(GROUP_LOADERS)).toEqual(GROUPS.map((group) => group.name));
    for (const group of GROUPS) expect(await GROUP_LOADERS[group.name]!(), group.name).toBe(group);
  });
});
