/**
 * What a property's name says about identity: a key's name (`id`, `uuid`, `petId`, `destination_uuid`)
 * and, when it is qualified (`destination_uuid`), whose key it is. A key qualified by another thing
 * than the item (DigitalOcean's sink has `destination_uuid`, the destination it forwards to) is a
 * reference to that thing, never the item's identifier. See docs/resources.md, "What is inferred".
 */

/** The last words that make a name a key's. */
const KEY_WORDS: ReadonlySet<string> = new Set(['id', 'uuid', 'guid', 'sid']);

/** A name's words, lower case: split at `_`, `-`, `.`, spaces and where a capital starts a word (`petId` → pet, id). */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_.\-]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

/** Words that make an integer's name a count's or a bound's, not a key's (`max_tokens`, `numItems`, `page_size`, `n`). */
const COUNT_WORDS: ReadonlySet<string> = new Set([
  'max',
  'min',
  'maximum',
  'minimum',
  'count',
  'num',
  'limit',
  'size',
  'total',
  'tokens',
  'quantity',
  'qty',
  'amount',
  'length',
  'n',
  'top',
  'budget',
  'timeout',
  'seconds',
]);

/** Whether the name says how many or how much (`max_tokens`, `numberOfSeats`, `n`): a count, not which item. */
export function isCountName(name: string): boolean {
  const words = nameWords(name);
  return words.some((word) => COUNT_WORDS.has(word)) || (words[0] === 'number' && words[1] === 'of');
}

/** Whose key a key's name is (`destination_uuid` → [destination]); [] for a bare key (`id`); undefined for a name that is no key's. */
function qualifier(name: string): readonly string[] | undefined {
  const words = nameWords(name);
  return KEY_WORDS.has(words.at(-1) ?? '') ? words.slice(0, -1) : undefined;
}

/** The item's own names: the item path parameter's words without its key word ({sink_uuid} → sink), and the collection's last static segment. */
export function ownNames(collectionPath: string, parameter: string | undefined): (readonly string[])[] {
  const segment = collectionPath
    .split('/')
    .filter((part) => part !== '' && !part.includes('{'))
    .at(-1);
  const own: (readonly string[])[] = [];
  if (parameter !== undefined) {
    const words = nameWords(parameter);
    const named = KEY_WORDS.has(words.at(-1) ?? '') ? words.slice(0, -1) : words;
    if (named.length > 0) own.push(named);
  }
  if (segment !== undefined) own.push(nameWords(segment));
  return own;
}

/**
 * Whether `property` is a key qualified as the item path's parameter is (`sink_id` at {logsink_id},
 * `evaluation_dataset_uuid` at {dataset_uuid}): the parameter names it, as it names `id` by its last word.
 */
export function isOwnKey(property: string, parameter: string): boolean {
  const words = qualifier(property);
  const named = qualifier(parameter);
  if (words === undefined || named === undefined || words.length === 0 || named.length === 0) return false;
  return endsWith(words, named) || endsWith(named, words);
}

/**
 * Whether `property` is a key qualified by another thing than the item: `destination_uuid` on a
 * sink, `petId` on an order, `project_id` on an app. A qualifier the item's own name ends with, or
 * that ends with it, is the item's (`evaluation_dataset_uuid` at {dataset_uuid}, `plant_id` in /plants).
 */
export function isReference(property: string, own: readonly (readonly string[])[]): boolean {
  const words = qualifier(property);
  if (words === undefined || words.length === 0) return false;
  return !own.some((name) => endsWith(words, name) || endsWith(name, words));
}

/** Whether `words`, joined, ends with `tail`, joined (logsink ends with sink), a plural matching its singular. */
function endsWith(words: readonly string[], tail: readonly string[]): boolean {
  if (tail.length === 0) return false;
  return joined(words).endsWith(joined(tail));
}

function joined(words: readonly string[]): string {
  return words.map(singular).join('');
}

/** A plural's singular, enough to compare names: categories → category, boxes → box, pets → pet. */
function singular(word: string): string {
  if (word.endsWith('ies') && word.length > 3) return `${word.slice(0, -3)}y`;
  if (/(s|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && word.length > 1) return word.slice(0, -1);
  return word;
}
