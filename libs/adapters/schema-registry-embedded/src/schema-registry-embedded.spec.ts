import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeSchemaRegistryContract, expectCode } from '@memory/testing';
import { createEmbeddedSchemaRegistry } from './index.js';

describeSchemaRegistryContract('schema-registry-embedded', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'registry-contract-'));
  const open = () => createEmbeddedSchemaRegistry({ dir });
  return { registry: await open(), reopen: open, cleanup: () => rm(dir, { recursive: true, force: true }) };
});

describe('schema-registry-embedded specifics', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'registry-embedded-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const base = { type: 'record', name: 'E', fields: [{ name: 'id', type: 'string' }] };
  const withRequired = { ...base, fields: [...base.fields, { name: 'n', type: 'int' }] };

  it('keeps logicalType and other attributes in the stored schema', async () => {
    const registry = await createEmbeddedSchemaRegistry({ dir });
    try {
      const schema = { ...base, doc: 'd', fields: [{ name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } }] };
      const id = await registry.register('s', JSON.stringify(schema));
      expect(JSON.parse(await registry.schemaById(id))).to.deep.equal(schema);
    } finally {
      await registry.close();
    }
  });

  it('starts ids at 1 and counts up across reopens', async () => {
    let registry = await createEmbeddedSchemaRegistry({ dir });
    expect(await registry.register('a', JSON.stringify(base))).to.equal(1);
    await registry.close();
    registry = await createEmbeddedSchemaRegistry({ dir });
    try {
      expect(await registry.register('b', JSON.stringify({ ...base, name: 'F' }))).to.equal(2);
    } finally {
      await registry.close();
    }
  });

  it('honours the compatibility level: NONE accepts anything, FORWARD checks the other direction', async () => {
    const none = await createEmbeddedSchemaRegistry({ dir: join(dir, 'none'), compatibility: 'NONE' });
    const forward = await createEmbeddedSchemaRegistry({ dir: join(dir, 'forward'), compatibility: 'FORWARD' });
    try {
      await none.register('s', JSON.stringify(base));
      await none.register('s', JSON.stringify(withRequired));
      expect(await none.versions('s')).to.deep.equal([1, 2]);
      // Adding a required field is forward compatible (old readers ignore it), removing one is not.
      await forward.register('s', JSON.stringify(base));
      await forward.register('s', JSON.stringify(withRequired));
      const withoutId = { ...base, fields: [{ name: 'n', type: 'int' }] };
      await expectCode(forward.register('s', JSON.stringify(withoutId)), 'REGISTRY.INCOMPATIBLE');
    } finally {
      await Promise.all([none.close(), forward.close()]);
    }
  });

  it('validates its options and rejects calls after close', async () => {
    await expectCode(createEmbeddedSchemaRegistry({ dir: '' }), 'CONFIG.INVALID');
    await expectCode(createEmbeddedSchemaRegistry({ dir, compatibility: 'SIDEWAYS' as never }), 'CONFIG.INVALID');
    const registry = await createEmbeddedSchemaRegistry({ dir });
    await registry.close();
    await expectCode(registry.register('s', JSON.stringify(base)), 'REGISTRY.CLOSED');
  });
});
