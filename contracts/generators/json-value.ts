/**
 * JSON values as the suite generates and sends them. int64 numbers are bigint so that they
 * reach the wire digit for digit: a JS number cannot hold 9007199254740993.
 */

export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

export type JsonObject = { [key: string]: JsonValue };

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Builds an object whose every key is an own, enumerable property, `__proto__` included:
 * plain assignment of `__proto__` would set the prototype instead and the key would vanish from the body.
 */
export function jsonObject(entries: Iterable<readonly [string, JsonValue]>): JsonObject {
  const object: JsonObject = {};
  for (const [key, value] of entries) {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return object;
}

/** The object's entries in key order (own enumerable string keys, `__proto__` included). */
export function jsonEntries(object: JsonObject): Array<[string, JsonValue]> {
  return Object.keys(object).map((key) => [key, object[key] as JsonValue]);
}

/** A copy of `object` without `key`, other keys in their order. */
export function withoutKey(object: JsonObject, key: string): JsonObject {
  return jsonObject(jsonEntries(object).filter(([k]) => k !== key));
}

/** A copy of `object` with `key` set to `value` (in place if present, appended otherwise). */
export function withKey(object: JsonObject, key: string, value: JsonValue): JsonObject {
  const entries = jsonEntries(object);
  const at = entries.findIndex(([k]) => k === key);
  if (at === -1) entries.push([key, value]);
  else entries[at] = [key, value];
  return jsonObject(entries);
}

/**
 * The exact JSON text of `value`: bigint as its decimal digits (never through a number),
 * strings escaped as JSON.stringify escapes them, object keys in their order.
 * Non-finite numbers have no JSON form and throw instead of silently becoming null.
 */
export function toJsonText(value: JsonValue): string {
  const parts: string[] = [];
  write(value, parts);
  return parts.join('');
}

function write(value: JsonValue, out: string[]): void {
  if (value === null) {
    out.push('null');
  } else if (typeof value === 'boolean') {
    out.push(value ? 'true' : 'false');
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`${value} has no JSON representation`);
    out.push(JSON.stringify(value));
  } else if (typeof value === 'bigint') {
    out.push(value.toString(10));
  } else if (typeof value === 'string') {
    out.push(JSON.stringify(value));
  } else if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, index) => {
      if (index > 0) out.push(',');
      write(item, out);
    });
    out.push(']');
  } else {
    out.push('{');
    let first = true;
    for (const key of Object.keys(value)) {
      if (!first) out.push(',');
      first = false;
      out.push(JSON.stringify(key), ':');
      write(value[key] as JsonValue, out);
    }
    out.push('}');
  }
}

/**
 * Deep equality of JSON values. A bigint equals a number when both are the same integer, or when both
 * are written the same in JSON: a double above 2^53 such as 98370357839424016 is written
 * "98370357839424020", which parseJsonExact reads back as that bigint.
 */
export function jsonEquals(a: JsonValue, b: JsonValue): boolean {
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    if (typeof a === 'number' && typeof b === 'number') return a === b;
    if (typeof a === 'bigint' && typeof b === 'bigint') return a === b;
    const [big, num] = typeof a === 'bigint' ? [a, b as number] : [b as bigint, a];
    return Number.isInteger(num) && (BigInt(num) === big || JSON.stringify(num) === big.toString());
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEquals(item, b[i] as JsonValue));
  }
  if (isJsonObject(a) || isJsonObject(b)) {
    if (!isJsonObject(a) || !isJsonObject(b)) return false;
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && jsonEquals(a[key] as JsonValue, b[key] as JsonValue))
    );
  }
  return a === b;
}

/** Thrown by parseJsonExact on text that is not one JSON value. */
export class JsonSyntaxError extends SyntaxError {
  override readonly name = 'JsonSyntaxError';
}

/**
 * Parses JSON without losing integers: an integer literal outside the JS safe range becomes a bigint
 * (JSON.parse would round 9007199254740993 to ...992). Keys such as `__proto__` become own properties.
 * Strict RFC 8259 grammar: no trailing commas, no single quotes, no comments, no leading BOM.
 */
export function parseJsonExact(text: string): JsonValue {
  const parser = new ExactParser(text);
  parser.skipWhitespace();
  const value = parser.value(0);
  parser.skipWhitespace();
  if (parser.position !== text.length) parser.fail('unexpected text after the JSON value');
  return value;
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
// Nesting deeper than this is refused rather than risk a stack overflow.
const MAX_NESTING = 1000;

class ExactParser {
  position = 0;
  constructor(private readonly text: string) {}

  fail(message: string): never {
    throw new JsonSyntaxError(`${message} at position ${this.position}`);
  }

  skipWhitespace(): void {
    while (this.position < this.text.length) {
      const c = this.text.charCodeAt(this.position);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      this.position++;
    }
  }

  value(depth: number): JsonValue {
    if (depth > MAX_NESTING) this.fail('nesting too deep');
    const c = this.text[this.position];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (this.text.startsWith('true', this.position)) return this.literal('true', true);
    if (this.text.startsWith('false', this.position)) return this.literal('false', false);
    if (this.text.startsWith('null', this.position)) return this.literal('null', null);
    return this.number();
  }

  private literal<T extends JsonValue>(word: string, value: T): T {
    this.position += word.length;
    return value;
  }

  private number(): number | bigint {
    NUMBER.lastIndex = this.position;
    const match = NUMBER.exec(this.text);
    if (!match) this.fail(this.position >= this.text.length ? 'unexpected end of text' : 'unexpected character');
    this.position += match[0].length;
    const literal = match[0];
    if (match[1] === undefined && match[2] === undefined) {
      const asNumber = Number(literal);
      return Number.isSafeInteger(asNumber) ? asNumber : BigInt(literal);
    }
    return Number(literal);
  }

  private string(): string {
    this.position++; // opening quote
    let result = '';
    let runStart = this.position;
    for (;;) {
      if (this.position >= this.text.length) this.fail('unterminated string');
      const code = this.text.charCodeAt(this.position);
      if (code === 0x22) {
        result += this.text.slice(runStart, this.position);
        this.position++;
        return result;
      }
      if (code < 0x20) this.fail('unescaped control character in string');
      if (code === 0x5c) {
        result += this.text.slice(runStart, this.position);
        const escape = this.text[this.position + 1];
        this.position += 2;
        switch (escape) {
          case '"': result += '"'; break;
          case '\\': result += '\\'; break;
          case '/': result += '/'; break;
          case 'b': result += '\b'; break;
          case 'f': result += '\f'; break;
          case 'n': result += '\n'; break;
          case 'r': result += '\r'; break;
          case 't': result += '\t'; break;
          case 'u': {
            const hex = this.text.slice(this.position, this.position + 4);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape');
            result += String.fromCharCode(parseInt(hex, 16));
            this.position += 4;
            break;
          }
          default:
            this.position -= 1;
            this.fail('bad escape');
        }
        runStart = this.position;
      } else {
        this.position++;
      }
    }
  }

  private array(depth: number): JsonValue[] {
    this.position++;
    const items: JsonValue[] = [];
    this.skipWhitespace();
    if (this.text[this.position] === ']') {
      this.position++;
      return items;
    }
    for (;;) {
      this.skipWhitespace();
      items.push(this.value(depth + 1));
      this.skipWhitespace();
      const c = this.text[this.position];
      this.position++;
      if (c === ']') return items;
      if (c !== ',') {
        this.position--;
        this.fail("expected ',' or ']'");
      }
    }
  }

  private object(depth: number): JsonObject {
    this.position++;
    const entries: Array<[string, JsonValue]> = [];
    const indexOf = new Map<string, number>();
    this.skipWhitespace();
    if (this.text[this.position] === '}') {
      this.position++;
      return jsonObject(entries);
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.position] !== '"') this.fail('expected a string key');
      const key = this.string();
      this.skipWhitespace();
      if (this.text[this.position] !== ':') this.fail("expected ':'");
      this.position++;
      this.skipWhitespace();
      const value = this.value(depth + 1);
      // A repeated key keeps its first place and its last value, as JSON.parse does.
      const existing = indexOf.get(key);
      if (existing === undefined) {
        indexOf.set(key, entries.length);
        entries.push([key, value]);
      } else {
        entries[existing] = [key, value];
      }
      this.skipWhitespace();
      const c = this.text[this.position];
      this.position++;
      if (c === '}') return jsonObject(entries);
      if (c !== ',') {
        this.position--;
        this.fail("expected ',' or '}'");
      }
    }
  }
}
