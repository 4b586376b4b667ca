import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/options/config-file.js';
import { loadSeedData } from '../../src/server/options/seed-file.js';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'plantstore-config-'));
  await mkdir(join(folder, 'conf'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

let files = 0;
/** Writes a file under the temp folder and answers its path. */
async function file(text: string, name = `plantstore-${(files += 1)}.yaml`): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, text);
  return path;
}

/** The ConfigError message of a config text, with the file's path shortened to its name. */
async function problem(text: string): Promise<string> {
  const path = await file(text);
  const error: unknown = await loadConfig(path).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConfigError);
  const { message } = error as ConfigError;
  expect(message.startsWith(`${path}: `), message).toBe(true);
  return message.slice(path.length + 2);
}

describe('loadConfig: a valid file', () => {
  test('reads every field into the server option names; paths resolve against the config folder', async () => {
    await writeFile(join(folder, 'conf', 'plants.json'), '[{"id": 9007199254740993, "name": "from file"}]');
    const path = await file(
      `# plantstore serve --config
spec: ../spec/plant-store.yaml
port: 0
host: 0.0.0.0
tokens: [alice, "12345"]
adminToken: admin-secret
authStatus: 401
echoId: true
cors: false
bodyLimitBytes: 65536
requestTimeoutMs: 5000
logLevel: warn
isolateByToken: true
dataDir: data
journalSize: 50
journalBytes: 1048576
faults:
  - kind: status
    operation: createPlant
    status: 503
    times: 2
  - kind: latency
    latencyMs: 100
    latencyMaxMs: 300
    percentage: 12.5
`,
      'conf/plantstore.yaml',
    );
    const config = await loadConfig(path);
    expect(config).toEqual({
      spec: join(folder, 'spec', 'plant-store.yaml'),
      port: 0,
      host: '0.0.0.0',
      tokens: ['alice', '12345'],
      adminToken: 'admin-secret',
      authStatus: 401,
      echoId: true,
      cors: false,
      bodyLimitBytes: 65536,
      requestTimeoutMs: 5000,
      logLevel: 'warn',
      isolateByToken: true,
      dataDir: join(folder, 'conf', 'data'),
      journalSize: 50,
      journalBytes: 1048576,
      faults: [
        { kind: 'status', operation: 'createPlant', status: 503, times: 2 },
        { kind: 'latency', latencyMs: 100, latencyMaxMs: 300, percentage: 12.5 },
      ],
    });
  });

  test('an empty file, or one of comments only, sets nothing', async () => {
    expect(await loadConfig(await file(''))).toEqual({});
    expect(await loadConfig(await file('# nothing yet\n'))).toEqual({});
  });

  test('allowedHosts is a list of names', async () => {
    expect(await loadConfig(await file('allowedHosts: [plantstore, "*"]\n'))).toEqual({ allowedHosts: ['plantstore', '*'] });
    expect(await loadConfig(await file('bodyBufferBytes: 8388608\n'))).toEqual({ bodyBufferBytes: 8388608 });
  });

  test('resources settle inference per collection path (what reaches inferResources)', async () => {
    const config = await loadConfig(
      await file(`resources:
  /things: {id: code, assignedBy: client, name: widgets}
  "/owners/{ownerId}/pets": {stateful: false}
`),
    );
    expect(config.resources).toEqual({ '/things': { id: 'code', assignedBy: 'client', name: 'widgets' }, '/owners/{ownerId}/pets': { stateful: false } });
  });

  test('JSON is read too', async () => {
    expect(await loadConfig(await file('{"port": 4011, "cors": true}', 'plantstore.json'))).toEqual({ port: 4011, cors: true });
  });

  test('seed ids are exact int64: numbers beyond 2^53, and digits in strings', async () => {
    const config = await loadConfig(
      await file(`seed:
  - {id: 9007199254740993, name: Golden barrel cactus}
  - {id: "9223372036854775807", name: Max, tag: edge}
  - {id: -9223372036854775808, name: Min}
  - {id: 1, name: Monstera deliciosa, tag: aroid}
`),
    );
    expect(config.seed).toEqual([
      { id: 9007199254740993n, name: 'Golden barrel cactus' },
      { id: 9223372036854775807n, name: 'Max', tag: 'edge' },
      { id: -9223372036854775808n, name: 'Min' },
      { id: 1n, name: 'Monstera deliciosa', tag: 'aroid' },
    ]);
  });

  test('seed may name a JSON file of plants, relative to the config file', async () => {
    await writeFile(join(folder, 'conf', 'seed.json'), '[{"id": 9007199254740993, "name": "exact"}, {"id": "12", "name": "string id"}]');
    const config = await loadConfig(await file('seed: seed.json\n', 'conf/with-seed-file.yaml'));
    expect(config.seed).toEqual([
      { id: 9007199254740993n, name: 'exact' },
      { id: 12n, name: 'string id' },
    ]);
  });
});

describe('loadConfig: every error names the file and the key path', () => {
  test('a file that cannot be read or parsed', async () => {
    const missing = join(folder, 'absent.yaml');
    await expect(loadConfig(missing)).rejects.toThrow(new RegExp(`^${missing}: cannot read the config file \\(--config\\): ENOENT`));
    expect(await problem('port: [4010\n')).toMatch(/^not valid YAML or JSON: /);
    expect(await problem('port: 1\nport: 2\n')).toMatch(/^not valid YAML or JSON: Map keys must be unique/);
    expect(await problem('- port: 1\n')).toBe('the file must be a mapping of settings (e.g. "port: 4010"), not a list');
  });

  test('unknown keys are refused, with the nearest known one', async () => {
    expect(await problem('prot: 4010\n')).toMatch(/^unknown key "prot"; did you mean "port"\? \(known keys: spec, port, host, /);
    expect(await problem('colour: blue\n')).toMatch(/^unknown key "colour" \(known keys: /);
    expect(await problem('faults:\n  - kind: reset\n    time: 2\n')).toMatch(/^unknown key "time" in faults\[0\]; did you mean "times"\?/);
    expect(await problem('seed:\n  - {id: 1, name: a, colour: red}\n')).toMatch(/^unknown key "colour" in seed\[0\]/);
  });

  test('each field with a wrong type or out of range says what it must be and what it was', async () => {
    expect(await problem('port: 70000\n')).toBe('port must be a whole number from 0 to 65535, not 70000');
    expect(await problem('port: "4010"\n')).toBe('port must be a whole number from 0 to 65535, not "4010"');
    expect(await problem('port:\n')).toBe('port must be a whole number from 0 to 65535, not null');
    expect(await problem('bodyLimitBytes: 1.5\n')).toBe('bodyLimitBytes must be a whole number from 1 to 2147483648, not 1.5');
    expect(await problem('bodyBufferBytes: 0\n')).toBe('bodyBufferBytes must be a whole number from 1 to 1099511627776, not 0');
    expect(await problem('requestTimeoutMs: 10\n')).toBe('requestTimeoutMs must be a whole number from 100 to 3600000, not 10');
    expect(await problem('journalSize: -1\n')).toBe('journalSize must be a whole number from 0 to 1000000, not -1');
    expect(await problem('journalBytes: 1.5\n')).toBe('journalBytes must be a whole number from 0 to 1099511627776, not 1.5');
    expect(await problem('maxTenants: 0\n')).toBe('maxTenants must be a whole number from 1 to 10000000, not 0');
    expect(await problem('authStatus: 403\n')).toBe('authStatus must be 400 or 401, not 403');
    expect(await problem('logLevel: loud\n')).toBe('logLevel must be one of silent, error, warn, info, debug, not "loud"');
    expect(await problem('echoId: yes\n')).toBe('echoId must be true or false, not "yes"');
    expect(await problem('tokens: alice\n')).toBe('tokens must be a list, not the value given (not shown: a credential)');
    // A token's value is never repeated: the refusal reaches logs and CI output.
    expect(await problem('tokens: [alice, 12345]\n')).toBe('tokens[1] must be a string (quote it), not the value given (not shown: a credential)');
    expect(await problem('tokens: [alice, ""]\n')).toBe('tokens[1] must be a non-empty string, not the value given (not shown: a credential)');
    expect(await problem('adminToken: 42\n')).toBe('adminToken must be a string (quote it), not the value given (not shown: a credential)');
    expect(await problem('adminToken: [s3cret]\n')).toBe('adminToken must be a string, not the value given (not shown: a credential)');
    expect(await problem('spec: {}\n')).toBe('spec must be a string, not a mapping');
    expect(await problem('allowedHosts: plantstore\n')).toBe('allowedHosts must be a list, not "plantstore"');
    expect(await problem('allowedHosts: [plantstore, ""]\n')).toBe('allowedHosts[1] must be a non-empty string, not ""');
  });

  test('resources: each override is checked key by key, and keyed by a collection path', async () => {
    expect(await problem('resources:\n  /things: {idd: code}\n')).toMatch(
      /^unknown key "idd" in resources\["\/things"\]; did you mean "id"\? \(known keys: name, id, assignedBy, stateful, fields, envelope\)/,
    );
    expect(await problem('resources:\n  /things: {assignedBy: me}\n')).toBe('resources["/things"].assignedBy must be one of client, server, either, not "me"');
    expect(await problem('resources:\n  /things: {id: ""}\n')).toBe('resources["/things"].id must be a non-empty string, not ""');
    expect(await problem('resources:\n  /things: {stateful: no}\n')).toBe('resources["/things"].stateful must be true or false, not "no"');
    expect(await problem('resources:\n  /things: code\n')).toBe(
      'resources["/things"] must be a mapping with any of name, id, assignedBy, stateful, fields, envelope (e.g. {id: petId}), not "code"',
    );
    expect(await problem('resources:\n  /things: {fields: {slug: from-title}}\n')).toBe(
      'resources["/things"].fields.slug must be one of created-time, updated-time, counter, flag, default, placeholder, none or {slugFrom: <property>}, not "from-title"',
    );
    expect(await problem('resources:\n  /things: {fields: [slug]}\n')).toBe(
      'resources["/things"].fields must be a mapping of properties to how the server makes them (e.g. {publishedAt: created-time}), not a list',
    );
    expect(await problem('resources: [/things]\n')).toBe(
      'resources must be a mapping of collection paths to overrides (e.g. "/pets": {id: petId}), not a list',
    );
    expect(await problem('resources:\n  things: {id: code}\n')).toBe('resources.things must be a collection path, starting with "/" (e.g. "/pets")');
  });

  test('faults are checked field by field, then as faults.add would', async () => {
    expect(await problem('faults:\n  - {kind: reset}\n  - {kind: status, status: 700}\n')).toBe(
      'faults[1].status must be a whole number from 200 to 599, not 700',
    );
    expect(await problem('faults:\n  - {kind: explode}\n')).toBe('faults[0].kind must be one of latency, status, reset, empty, slow-body, not "explode"');
    expect(await problem('faults:\n  - {kind: status}\n')).toBe('faults[0]: a status fault needs status, from 200 to 599');
    expect(await problem('faults:\n  - {kind: latency, latencyMs: 500, latencyMaxMs: 10}\n')).toBe('faults[0].latencyMaxMs must not be below latencyMs');
    expect(await problem('faults:\n  - {kind: reset, times: 0}\n')).toMatch(/^faults\[0\]\.times must be a whole number from 1 to /);
    expect(await problem('faults:\n  - {kind: reset, percentage: "50%"}\n')).toBe('faults[0].percentage must be a number, not "50%"');
    expect(await problem('faults:\n  - {kind: reset, operation: 7}\n')).toBe('faults[0].operation must be a string (quote it), not 7');
    expect(await problem('faults: {kind: reset}\n')).toBe('faults must be a list, not a mapping');
    expect(await problem('faults:\n  - reset\n')).toBe('faults[0] must be a fault (e.g. {kind: status, status: 503}), not "reset"');
  });

  test('seed plants: ids must be int64, names strings, ids unique', async () => {
    expect(await problem('seed:\n  - {id: 1, name: a}\n  - {id: 9223372036854775808, name: b}\n')).toMatch(
      /^seed\[1\]\.id must be an int64 \(a whole number from -9223372036854775808 to 9223372036854775807, or its digits as a string\), not 9223372036854775808$/,
    );
    expect(await problem('seed:\n  - {id: 1.5, name: a}\n')).toMatch(/^seed\[0\]\.id must be an int64 .*, not 1\.5$/);
    expect(await problem('seed:\n  - {id: "0x10", name: a}\n')).toMatch(/^seed\[0\]\.id must be an int64 .*, not "0x10"$/);
    expect(await problem('seed:\n  - {name: a}\n')).toMatch(/^seed\[0\]\.id must be an int64 .*, not undefined$/);
    expect(await problem('seed:\n  - {id: 1, name: 5}\n')).toBe('seed[0].name must be a string, not 5');
    expect(await problem('seed:\n  - {id: 1, name: a, tag: [x]}\n')).toBe('seed[0].tag must be a string, not a list');
    expect(await problem('seed:\n  - {id: 7, name: a}\n  - {id: "7", name: b}\n')).toBe('seed[1].id 7 repeats seed[0].id; plant ids are unique');
    // A mapping is a seed by resource name: a plant written as one is read as the resources "id" and "name".
    expect(await problem('seed: {id: 1, name: a}\n')).toBe('seed.id must be a list of the id items, not 1');
    expect(await problem('seed: {plants: [{id: 1, name: 5}]}\n')).toBe('seed.plants[0].name must be a string, not 5');
  });

  test('seed ids in strings are read as every int64 text is (src/core/json/int64.ts): canonical decimal only', async () => {
    for (const text of ['007', '-0', '+1', ' 1', '0x1f']) {
      expect(await problem(`seed:\n  - {id: "${text}", name: a}\n`)).toMatch(/^seed\[0\]\.id must be an int64 /);
    }
    expect(await problem('seed:\n  - {id: "9223372036854775808", name: a}\n')).toMatch(/^seed\[0\]\.id must be an int64 /);
  });

  test('a seed file named by the config: its problems name it and the config', async () => {
    await writeFile(join(folder, 'bad-seed.json'), '[{"id": 1, "name": "a"}, {"id": 2}]');
    expect(await problem('seed: bad-seed.json\n')).toBe('seed file bad-seed.json: [1].name must be a string, not undefined');
    expect(await problem('seed: no-such.json\n')).toMatch(/^seed file no-such\.json: cannot read the seed file: ENOENT/);
  });
});

describe('loadSeedData', () => {
  test('reads a JSON array of NewPlant with exact ids', async () => {
    const path = await file(
      '[{"id": 9223372036854775807, "name": "Max"}, {"id": 9007199254740993, "name": "Big", "tag": "t"}, {"id": 1e3, "name": "Thousand"}]',
      'plants.json',
    );
    expect(await loadSeedData(path)).toEqual({
      plants: [
        { id: 9223372036854775807n, name: 'Max' },
        { id: 9007199254740993n, name: 'Big', tag: 't' },
        { id: 1000n, name: 'Thousand' },
      ],
      items: {},
    });
  });

  test('reads a mapping of resource names to items: plants checked as plants, the others kept exactly for the start', async () => {
    const path = await file(
      '{"plants": [{"id": "12", "name": "Fern"}], "pets": [{"id": 9007199254740993, "name": "Rex"}, {"id": 2, "name": "Tom"}]}',
      'seed.json',
    );
    expect(await loadSeedData(path)).toEqual({
      plants: [{ id: 12n, name: 'Fern' }],
      items: {
        pets: [
          { id: 9007199254740993n, name: 'Rex' },
          { id: 2, name: 'Tom' },
        ],
      },
    });
    const badPlant = await file('{"plants": [{"id": 1}]}', 'bad-plant.json');
    await expect(loadSeedData(badPlant)).rejects.toThrow(new RegExp(`^${badPlant}: plants\\[0\\]\\.name must be a string`));
    const notList = await file('{"pets": {"id": 1}}', 'not-list.json');
    await expect(loadSeedData(notList)).rejects.toThrow(`${notList}: pets must be a list of the pets items, not a mapping`);
  });

  test('errors name the file and the index', async () => {
    const notJson = await file('[{"id": 1,', 'broken.json');
    await expect(loadSeedData(notJson)).rejects.toThrow(new RegExp(`^${notJson}: the seed file is not valid JSON`));
    const notArray = await file('{"id": 1, "name": "a"}', 'object.json');
    await expect(loadSeedData(notArray)).rejects.toThrow(`${notArray}: id must be a list of the id items, not 1`);
    const text = await file('"plants"', 'text.json');
    await expect(loadSeedData(text)).rejects.toThrow(`${text}: the file must be a list of plants ({id, name, tag?}), not "plants"`);
    const badId = await file('[{"id": 1, "name": "a"}, {"id": 1.5, "name": "b"}]', 'bad-id.json');
    await expect(loadSeedData(badId)).rejects.toThrow(new RegExp(`^${badId}: \\[1\\]\\.id must be an int64 .*, not 1\\.5$`));
    await expect(loadSeedData(join(folder, 'absent.json'))).rejects.toBeInstanceOf(ConfigError);
  });
});
