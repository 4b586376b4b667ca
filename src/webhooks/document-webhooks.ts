/**
 * The served document's webhooks, ready to deliver: which resources' creates send which webhooks
 * (the resource model says: a webhook whose payload is the resource's schema) and the sender.
 */
import { PlantstoreError } from '../core/errors.js';
import type { JsonValue } from '../core/json/exact-json.js';
import type { LoadedDocument } from '../core/openapi/load-document.js';
import type { Resource, ResourceModel } from '../core/resources/model.js';
import { compileWebhookPayload, type WebhookPayload } from './payload.js';
import { createWebhookSender, type WebhookSender, type WebhookSenderOptions } from './sender.js';

export interface DocumentWebhooks {
  readonly url: string;
  /** The webhooks some resource's create sends. */
  readonly names: readonly string[];
  readonly sender: WebhookSender;
  /** After a create of `resource`: deliver its webhooks (returns at once). */
  created(resource: Resource, fields: Readonly<Record<string, JsonValue>>, tenant: string): void;
}

/** The sender's options besides where and what: retries, caps, and whom to tell of attempts and drops. */
export type DocumentWebhooksOptions = Pick<WebhookSenderOptions, 'onAttempt' | 'retry' | 'history' | 'maxPending' | 'onDropped' | 'onChange'>;

/** The webhooks of `document` delivered to `url`; a URL that is not http(s) is a usage error. */
export function documentWebhooks(document: LoadedDocument, model: ResourceModel, url: string, options: DocumentWebhooksOptions = {}): DocumentWebhooks {
  const target = webhookUrl(url);
  const payloads = new Map<string, WebhookPayload>();
  for (const webhook of document.webhooks) {
    const payload = compileWebhookPayload(webhook.name, webhook);
    if (payload) payloads.set(webhook.name, payload);
  }
  const names = [...new Set(model.resources.flatMap((resource) => resource.webhooks))].filter((name) => payloads.has(name));
  const sender = createWebhookSender({ url: target, payloads, ...options });
  return {
    url: target.href,
    names,
    sender,
    created: (resource, fields, tenant) => {
      if (resource.webhooks.length > 0) sender.notify(resource.webhooks, resource.name, fields, tenant);
    },
  };
}

function webhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PlantstoreError('usage', `--webhook must be an http:// or https:// URL, not ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new PlantstoreError('usage', `--webhook must be an http:// or https:// URL, not ${JSON.stringify(text)}`);
  if (url.username !== '' || url.password !== '')
    throw new PlantstoreError(
      'usage',
      '--webhook must not carry credentials in the URL (they would be logged); the receiver must accept deliveries without them',
    );
  return url;
}
