/**
 * A tiny strict JSON (RFC 8259) reader that keeps numbers as their source text.
 * JSON.parse turns 9007199254740993 into 9007199254740992, and Node 20 has no
 * reviver source access, so the double reads ids itself to keep int64 exact.
 * Objects are Maps so that "__proto__" and "constructor" are ordinary keys.
 */

export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | JsonObject;
export type JsonObject = Map<string, JsonValue>;

/** A number exactly as written in the text, e.g. "-0", "1.50", "9007199254740993", "1e3". */
export interface JsonNumber {
  readonly kind: 'number';
  readonly raw: string;
}

export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
}

/** Deep enough for any plant, shallow enough that a hostile body cannot overflow the stack. */
const MAX_DEPTH = 256;

export function parseExactJson(text: string): JsonValue {
  const reader = new Reader(text);
  reader.skipWhitespace();
  const value = reader.value(0);
  reader.skipWhitespace();
  if (!reader.atEnd()) reader.fail('unexpected text after the JSON value');
  return value;
}

export function isJsonNumber(value: JsonValue | undefined): value is JsonNumber {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map);
}

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return value instanceof Map;
}

/**
 * The exact value of a JSON number if it is a mathematical integer (JSON Schema's
 * "integer": 1.0 and 1e2 count, 1.5 does not); 'fraction' otherwise. Magnitudes far
 * beyond any int64 come back as 'huge' instead of being expanded digit by digit.
 */
export function exactInteger(raw: string): bigint | 'fraction' | 'huge' {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(raw);
  if (!match) return 'fraction';
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  let digits = (whole + fraction).replace(/^0+(?=\d)/, '');
  const exponent = Number(exponentText) - fraction.length;
  if (/^0+$/.test(digits)) return 0n;
  if (exponent < 0) {
    // Only trailing zeros may be dropped: 1.50e1 is 15, 1.5 is not an integer.
    const dropped = digits.slice(exponent);
    if (!/^0+$/.test(dropped)) return 'fraction';
    digits = digits.slice(0, exponent);
  } else {
    if (digits.length + exponent > 40) return 'huge';
    digits += '0'.repeat(exponent);
  }
  const magnitude = BigInt(digits);
  return sign === '-' ? -magnitude : magnitude;
}

class Reader {
  private at = 0;

  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.at >= this.text.length;
  }

  fail(message: string): never {
    throw new JsonSyntaxError(`${message} at position ${this.at}`);
  }

  skipWhitespace(): void {
    while (this.at < this.text.length) {
      const c = this.text[this.at];
      if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') return;
      this.at++;
    }
  }

  value(depth: number): JsonValue {
    if (depth > MAX_DEPTH) this.fail('nested too deeply');
    const c = this.text[this.at];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    if (this.text.startsWith('true', this.at)) return this.literal('true', true);
    if (this.text.startsWith('false', this.at)) return this.literal('false', false);
    if (this.text.startsWith('null', this.at)) return this.literal('null', null);
    return this.fail(c === undefined ? 'unexpected end of input' : `unexpected ${JSON.stringify(c)}`);
  }

  private literal<T>(word: string, value: T): T {
    this.at += word.length;
    return value;
  }

  private object(depth: number): JsonObject {
    const members: JsonObject = new Map();
    this.at++; // {
    this.skipWhitespace();
    if (this.text[this.at] === '}') {
      this.at++;
      return members;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.at] !== '"') this.fail('expected a member name');
      const key = this.string();
      this.skipWhitespace();
      if (this.text[this.at] !== ':') this.fail('expected ":"');
      this.at++;
      this.skipWhitespace();
      members.set(key, this.value(depth + 1)); // the last duplicate wins, as with JSON.parse
      this.skipWhitespace();
      const next = this.text[this.at++];
      if (next === '}') return members;
      if (next !== ',') this.fail('expected "," or "}"');
    }
  }

  private array(depth: number): JsonValue[] {
    const items: JsonValue[] = [];
    this.at++; // [
    this.skipWhitespace();
    if (this.text[this.at] === ']') {
      this.at++;
      return items;
    }
    for (;;) {
      this.skipWhitespace();
      items.push(this.value(depth + 1));
      this.skipWhitespace();
      const next = this.text[this.at++];
      if (next === ']') return items;
      if (next !== ',') this.fail('expected "," or "]"');
    }
  }

  private number(): JsonNumber {
    const match = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    match.lastIndex = this.at;
    const found = match.exec(this.text);
    if (!found) return this.fail('malformed number');
    this.at += found[0].length;
    return { kind: 'number', raw: found[0] };
  }

  private string(): string {
    this.at++; // opening quote
    let out = '';
    for (;;) {
      const c = this.text[this.at];
      if (c === undefined) this.fail('unterminated string');
      if (c === '"') {
        this.at++;
        return out;
      }
      if (c < ' ') this.fail('unescaped control character in string');
      if (c !== '\\') {
        out += c;
        this.at++;
        continue;
      }
      const escape = this.text[this.at + 1];
      this.at += 2;
      switch (escape) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const hex = this.text.slice(this.at, this.at + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('malformed \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          this.at += 4;
          break;
        }
        default:
          this.fail('unknown escape');
      }
    }
  }
}

/** A JSON object request body, or what is wrong with it (a double's 400 says it). */
export function jsonObjectBody(body: string, contentType: string | undefined): JsonObject | string {
  if (contentType?.split(';')[0]?.trim().toLowerCase() !== 'application/json') return 'the content type must be application/json';
  let value: JsonValue;
  try {
    value = parseExactJson(body);
  } catch (failure) {
    return failure instanceof JsonSyntaxError ? `not JSON: ${failure.message}` : 'not JSON';
  }
  return isJsonObject(value) ? value : 'the body must be an object';
}
