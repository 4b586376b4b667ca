/**
 * The printed curl steps of a stateful finding, run by bash with curl replaced by a function that
 * answers the create and prints what each later step would send: the ids the steps created are
 * shell variables, a server's id read from the create's answer exactly (digits beyond 2^53 kept),
 * a client's set at the top; secrets stay variables.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { SentRequest } from '../report.js';
import { findingCurl, readJsonValue } from './finding.js';

/** Runs `script` in bash after defining `curl` as a function: POST answers `answer`; other methods print their URL and body. */
function runWithFakeCurl(script: string, answer: string, env: Record<string, string> = {}): string {
  const fakeCurl = [
    `curl() {`,
    `  local method='' url='' body='' headers=''`,
    `  while [ $# -gt 0 ]; do case "$1" in`,
    `    -X) method="$2"; shift 2;;`,
    `    -H) headers="$headers[$2]"; shift 2;;`,
    `    --data-binary) if [ "$2" = @- ]; then body="$(cat)"; else body="$2"; fi; shift 2;;`,
    `    -*) shift;;`,
    `    *) url="$1"; shift;;`,
    `  esac; done`,
    `  if [ "$method" = POST ]; then printf '%s' "$ANSWER"; else printf '%s %s %s %s\\n' "$method" "$url" "$headers" "$body"; fi`,
    `}`,
  ].join('\n');
  return execFileSync('bash', ['-c', `${fakeCurl}\n${script}`], { env: { ...process.env, ANSWER: answer, ...env } }).toString();
}

const AUTH = { authorization: 'Bearer $TOKEN' };
const JSON_TYPE = { 'content-type': 'application/json' };

function serverCreate(id: string): SentRequest {
  return {
    method: 'POST',
    url: 'http://h:8080/pets',
    headers: { ...JSON_TYPE, ...AUTH },
    body: '{"name":"a"}',
    label: 'step 1: create pets',
    creates: { property: 'id', id, assignedBy: 'server' },
  };
}

describe('readJsonValue: the first value of a property in a JSON answer, with no jq', () => {
  const read = (json: string, property = 'id'): string =>
    execFileSync('bash', ['-c', `printf '%s' "$JSON" | ${readJsonValue(property)}`], { env: { ...process.env, JSON: json } }).toString();

  it('an integer beyond 2^53 keeps its digits', () => {
    expect(read('{"name":"a","id":9007199254740993}')).toBe('9007199254740993\n');
    expect(read('{"id":-9223372036854775808}')).toBe('-9223372036854775808\n');
  });

  it('pretty-printed JSON, a string id, and another property of the same answer', () => {
    expect(read('{\n  "name": "a",\n  "id": 42\n}')).toBe('42\n');
    expect(read('{"id":"3f2c9a1e-0b4d-4c6e-9f00-1a2b3c4d5e6f","name":"a"}')).toBe('3f2c9a1e-0b4d-4c6e-9f00-1a2b3c4d5e6f\n');
    expect(read('{"petId":7,"sku":"a/b.c"}', 'sku')).toBe('a/b.c\n');
    // "id" inside "petId" is not the property "id".
    expect(read('{"petId":7,"id":8}')).toBe('8\n');
  });
});

describe('findingCurl: created ids as shell variables', () => {
  it("a server's id is read from the create's answer and named in later paths and bodies; the token stays $TOKEN", () => {
    const id = '9007199254740993';
    const finding = {
      before: [
        serverCreate(id),
        { method: 'PUT', url: `http://h:8080/pets/${id}`, headers: { ...JSON_TYPE, ...AUTH }, body: `{"id":${id},"name":"b"}`, label: 'step 2' },
      ],
      request: { method: 'GET', url: `http://h:8080/pets/${id}?x=1`, headers: AUTH, label: 'step 3' },
    };
    const curl = findingCurl(finding);
    const lines = curl.split('\n');
    expect(lines[0]).toMatch(/^# ID1: the id the server assigns, read from the create's answer/);
    // The create prints only its body (no -i), which the pipeline reads the id from.
    expect(lines[1]).toMatch(/^ID1=\$\(curl -sS -X 'POST' 'http:\/\/h:8080\/pets' .* \| grep -Eo /);
    expect(curl).not.toContain(id);
    expect(curl).toContain(`-H 'authorization: Bearer '"$TOKEN"`);
    expect(lines[2]).toContain(`'http://h:8080/pets/'"$ID1"`);

    // Against a server that assigns another id, the later steps name the one it assigned.
    const fresh = '9223372036854775000';
    const out = runWithFakeCurl(curl, `{"name":"a","id":${fresh}}`, { TOKEN: 'secret' });
    expect(out).toBe(
      [
        `PUT http://h:8080/pets/${fresh} [content-type: application/json][authorization: Bearer secret] {"id":${fresh},"name":"b"}`,
        `GET http://h:8080/pets/${fresh}?x=1 [authorization: Bearer secret] `,
        '',
      ].join('\n'),
    );
  });

  it('a server-assigned string id, in a body that printf must carry (non-ASCII): the id goes in as a printf argument', () => {
    const id = '3f2c9a1e-0b4d-4c6e-9f00-1a2b3c4d5e6f';
    const finding = {
      before: [{ ...serverCreate(id), url: 'http://h/things' }],
      request: { method: 'PATCH', url: `http://h/things/${id}`, headers: JSON_TYPE, body: `{"id":"${id}","name":"🌱 50%"}`, label: 'step 2' },
    };
    const curl = findingCurl(finding);
    expect(curl).not.toContain(id);
    expect(curl).toMatch(/printf '.*%s.*' "\$ID1" \| curl/);
    const fresh = 'aaaaaaaa-0000-4000-8000-000000000001';
    expect(runWithFakeCurl(curl, `{"id":"${fresh}"}`)).toBe(
      `PATCH http://h/things/${fresh} [content-type: application/json] {"id":"${fresh}","name":"🌱 50%"}\n`,
    );
  });

  it("a client's id is set at the top, to set fresh; a server create that is the finding's own request is printed whole", () => {
    const finding = {
      before: [
        {
          method: 'POST',
          url: 'http://h/plants',
          headers: JSON_TYPE,
          body: '{"id":123456789,"name":"a"}',
          label: 'step 1',
          creates: { property: 'id', id: '123456789', assignedBy: 'client' as const },
        },
      ],
      request: serverCreate('5'),
    };
    const lines = findingCurl(finding).split('\n');
    expect(lines[0]).toMatch(/set fresh ones/);
    expect(lines[1]).toBe('ID1=123456789');
    expect(lines[2]).toContain(`--data-binary '{"id":'"$ID1"',"name":"a"}'`);
    // Nothing after it needs its id: its answer is shown (-i), not read.
    expect(lines[3]).toMatch(/^curl -sS -i -X 'POST'/);
    expect(lines).toHaveLength(4);
  });

  it('a host, port or base path of the target that looks like an id is left alone', () => {
    const finding = {
      before: [{ ...serverCreate('8080'), url: 'http://8080:8080/8080/pets' }],
      request: { method: 'GET', url: 'http://8080:8080/8080/pets/8080', headers: {}, label: 'step 2' },
    };
    expect(findingCurl(finding, 'http://8080:8080/8080/')).toContain(`'http://8080:8080/8080/pets/'"$ID1"`);
    // Without the target only the origin is known.
    expect(findingCurl(finding)).toContain(`'http://8080:8080/'"$ID1"'/pets/'"$ID1"`);
  });
});
