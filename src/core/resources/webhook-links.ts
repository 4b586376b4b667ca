/**
 * Which of the document's webhooks a resource's creates deliver: those whose JSON payload has the
 * structure of the resource's create body, of its item (read / answer) schema, or of a schema that
 * item is composed of with allOf (an answer that adds `links` to the read schema, as the Train
 * Travel API writes it, still delivers a webhook whose payload is that read schema).
 */
import type { LoadedDocument } from '../openapi/load-document.js';
import { structureSignature } from './schema-shape.js';

/** allOf nests shallowly in practice; deeper compositions are left unlinked rather than walked. */
const MAX_COMPOSITION_DEPTH = 4;

export interface WebhookPayload {
  readonly name: string;
  readonly signature: string | undefined;
}

export function webhookPayloads(document: LoadedDocument): WebhookPayload[] {
  return document.webhooks.map((webhook) => {
    const schema = webhook.request?.body?.contents?.find((content) => content.schema !== undefined && /json/i.test(content.mediaType))?.schema;
    return { name: webhook.name, signature: schema === undefined ? undefined : structureSignature(schema) };
  });
}

/** The names of the webhooks whose payload is an object of one of these schemas' structures. */
export function linkedWebhooks(payloads: readonly WebhookPayload[], schemas: readonly unknown[]): string[] {
  const objectPayloads = payloads.filter(({ signature }) => signature?.startsWith('{') === true);
  // Most documents have no webhook: then no schema's signature is worth computing (they were a
  // tenth of a large document's cold start).
  if (objectPayloads.length === 0) return [];
  const signatures = new Set<string>();
  for (const schema of schemas) if (schema !== undefined) addSignatures(schema, signatures, 0);
  const names = objectPayloads.filter(({ signature }) => signatures.has(signature as string)).map(({ name }) => name);
  return [...new Set(names)];
}

function addSignatures(schema: unknown, into: Set<string>, depth: number): void {
  into.add(structureSignature(schema));
  const members = typeof schema === 'object' && schema !== null && 'allOf' in schema ? schema.allOf : undefined;
  if (!Array.isArray(members) || depth >= MAX_COMPOSITION_DEPTH) return;
  for (const member of members) if (typeof member === 'object' && member !== null) addSignatures(member, into, depth + 1);
}
