/**
 * What a check sees and what it says. A check is a pure function of one exchange: the request
 * as sent, what came back, and the facts the runner knows about why it was sent.
 */
import type { Operation } from '../../src/core/openapi/load-document.js';
import type { SiblingPath } from '../../src/core/resources/model.js';
import type { JsonValue } from '../generators/json-value.js';
import type { Expectation, ReceivedResponse, SentRequest } from '../report.js';

/** Why a request was sent, which decides what its answer must be. */
export type ExchangeRole =
  /** A valid create of its own (positive-acceptance). */
  | 'create'
  /** An invalid request of its own (negative-rejection, auth-enforced). */
  | 'reject'
  /** The same valid payload again with a never-used id, sent after a refusal to learn whether the id was the reason. */
  | 'retry'
  /** The first create of a duplicate-ids scenario, or the first of two int64 neighbours. */
  | 'setup'
  /** A second create of an id the target accepted just before (duplicate-ids). */
  | 'repeat'
  /** The second of two int64 neighbours (e.g. 2^53 then 2^53+1) after the first was accepted (duplicate-ids). */
  | 'neighbour'
  /** A step of a stateful model run (stateful-model). */
  | 'model'
  /** A step of a resource's life (create, read, list, delete, re-create), judged by what the model holds (lifecycle checks). */
  | 'lifecycle';

/** An item as a list shows it: the value of one property that tells it apart (its id, or a marker the suite wrote). */
export interface ItemMark {
  readonly property: string;
  /** The value as exact JSON text ("9007199254740993", "\"ps-1f…\""). */
  readonly text: string;
  /** A marker's unique part: a listed item whose text contains it is this item, its other characters perhaps changed (stored-content-shown judges those). */
  readonly token?: string;
}

/** A property's value that an update or replace of this sequence set; `value` absent: the update removed it (merge patch null). */
export interface ExpectedValue {
  readonly property: string;
  readonly value?: JsonValue;
}

/** What the resource model held when a lifecycle step was sent. */
export interface StateFacts {
  readonly step:
    | 'create'
    | 'read-held'
    | 'read-deleted'
    | 'list'
    | 'delete'
    | 'recreate'
    | 'update'
    | 'replace'
    /** A create again with a held item's id and other values: refused, the stored item must stay as it was. */
    | 'duplicate'
    /** A delete of a held item without credentials: whatever its status, the item must stay. */
    | 'delete-unauthorised'
    /** A list asked for the items whose property has one of the given values (list-filter-honoured). */
    | 'list-filtered';
  /** Items created and not deleted by this sequence: a complete list shows them, a read finds them. */
  readonly held?: readonly ItemMark[];
  /** Items this sequence deleted: no list shows them, no read finds them. */
  readonly deleted?: readonly ItemMark[];
  /** How many items this sequence holds (created, not deleted), marked or not. */
  readonly holds?: number;
  /** The page size sent to a list, exactly. */
  readonly limit?: bigint;
  /** For a list sent no limit: the page it is answered with by the document's word (its limit's default); one that fills it may not be complete. */
  readonly page?: bigint;
  /** For a list: where its answer's envelope says the total (the resource's count sibling), when it does (list-total-counted). */
  readonly countAt?: SiblingPath;
  /** For a replace: it updates only what it sends (core/conformance/replace-kind.ts), so the rest stays as stored. */
  readonly keepsUnsent?: boolean;
  /** For a read of an item this sequence updated or replaced: the values sent that the read's schema has (update-applied). */
  readonly expected?: readonly ExpectedValue[];
  /** For a read of a held item: the property its answer wraps the item in (the resource's envelope), when it has one. */
  readonly envelope?: string;
  /** For a read of a held item: what its create sent that no change since has set, and its id (stored-content-shown). */
  readonly content?: readonly ExpectedValue[];
  /** For a filtered list: the property its filter names, the values asked for, and the held items that match (list-filter-honoured). */
  readonly filter?: {
    readonly parameter: string;
    readonly property: string;
    /** The property is an array that must contain one of the values (ListParameters.filterContains). */
    readonly contains?: boolean;
    readonly values: readonly JsonValue[];
    readonly matching: readonly ItemMark[];
  };
  /** For a list: each held item's mark and every value it must show (its create's and its changes'), stored-content-shown. */
  readonly shown?: ReadonlyArray<{ readonly mark: ItemMark; readonly values: readonly ExpectedValue[] }>;
  /** For a list: each deleted item's mark and what it was last sent with, to tell it from another item given its id (deleted-item-not-listed). */
  readonly gone?: ReadonlyArray<{ readonly mark: ItemMark; readonly values: readonly ExpectedValue[] }>;
}

export interface ExchangeFacts {
  readonly role: ExchangeRole;
  readonly kind: 'valid' | 'invalid';
  readonly target: 'body' | 'content-type' | 'auth' | 'parameter';
  /** For invalid cases: what rule the request breaks. */
  readonly breaks?: string | undefined;
  /** The JSON value of the body as sent (after any id change); absent when the body is not JSON. */
  readonly payload?: JsonValue | undefined;
  /**
   * The id sent, and whether it is certainly unused: ids the runner drew fresh for this run
   * ("fresh") cannot be held by the target, ids sent as generated (edge values such as 0 or
   * 2^53+1) may be left over from earlier runs against a stateful target ("literal").
   * A bigint for an integer id, a string for a uuid or string one; `property` when it is not "id".
   */
  readonly id?: { readonly value: bigint | string; readonly freshness: 'fresh' | 'literal'; readonly property?: string } | undefined;
  /** What the scenario expects of the target (repeat, neighbour and model steps). */
  readonly expect?: 'accept' | 'refuse' | 'either' | undefined;
  /** Why it expects that, in words for the finding (e.g. "id 17 was stored 3 steps before"). */
  readonly because?: string;
  /** For lifecycle steps: what the model held (see StateFacts). */
  readonly state?: StateFacts;
  /** The operation may answer 404: its path names an item that may not exist (a drawn id). */
  readonly itemMayBeAbsent?: boolean;
  /** The path names an item this run created for the case (runner/owned-items.ts): a 404 is not about an id it never created. */
  readonly ownedItem?: true;
  /** Why a refusal of this valid request is expected: state the schema cannot show (credentials never signed up, a value taken earlier in the run). */
  readonly refusalExpected?: string;
  /**
   * The request presents a credential this run drew, which the target never issued, to an operation
   * that answers a session for it (a refresh token to the refresh): what it is, in words. A target
   * that checks credentials must refuse it (auth-enforced, where CheckContext.tokensValidated).
   */
  readonly unissuedCredential?: string;
  /** After a refusal of a valid create: the same payload with a never-used id, and its answer. */
  readonly retry?: { readonly request: SentRequest; readonly response: ReceivedResponse };
}

export interface Exchange {
  readonly request: SentRequest;
  readonly response: ReceivedResponse;
  readonly facts: ExchangeFacts;
  /** Requests sent before this one in the same scenario, in order (to replay it). */
  readonly before?: readonly SentRequest[];
  /** The operation it was sent to, when not the plan's own (a lifecycle sequence calls several). */
  readonly operation?: Operation;
}

export interface CheckContext {
  readonly operation: Operation;
  /** The target must refuse a stored id again. */
  readonly expectUniqueIds: boolean;
  /**
   * The target is known to check credentials (--tokens-validated, or the run signed in by evidence):
   * a credential it never issued must be refused. Unknown, a target is not blamed for honouring one.
   */
  readonly tokensValidated?: boolean;
  /** The query parameter that bounds the size of this operation's list answer ('limit'), when it is a list. */
  readonly limitParameter?: string | undefined;
  /** How the target refuses an id it holds, learnt in this run (see runner/evidence.ts). */
  readonly duplicateRefusal?: RefusalShape | undefined;
  /** A create's identifier property that the client may leave out and the server then assigns ('id' of the Swagger Petstore 3's Pet). */
  readonly assignedIdentifier?: string | undefined;
  /** A change that keeps what it does not send: a PUT that updates only the properties sent (core/conformance/replace-kind.ts). */
  readonly keepsUnsent?: boolean | undefined;
  /** Other operations of the method on the same request path (Box's "#" alternatives): an answer may be any one's. */
  readonly sameRoute?: readonly Operation[] | undefined;
}

/** A refusal's fingerprint: its status, its error code, and its message with the values taken out. */
export interface RefusalShape {
  readonly status: number;
  readonly code: string | undefined;
  readonly message: string | undefined;
}

/**
 * What makes two problems the same kind, so that 200 requests refused for one reason make one
 * shrunk finding, not 200 (Schemathesis calls it a failure's unique key).
 */
export type ProblemKey =
  /**
   * For checks about the request: the same rule, broken by the same kind of request (its role,
   * valid or invalid, what it targets, the rule it breaks) and answered with the same status or error.
   */
  | { readonly by: 'request'; readonly rule: string }
  /** For checks about the answer: the same fault in it whatever the request (e.g. "400 error must be <= 2147483647"). */
  | { readonly by: 'answer'; readonly fault: string };

export function byRequest(rule: string): ProblemKey {
  return { by: 'request', rule };
}

export function byAnswer(fault: string): ProblemKey {
  return { by: 'answer', fault };
}

export interface Problem {
  readonly expected: string;
  /** `expected` as data, for regression tests. */
  readonly expectation: Expectation;
  readonly actual: string;
  readonly message: string;
  /** What makes two problems the same kind: they make one finding (see ProblemKey). */
  readonly key: ProblemKey;
  /** The exchange that shows the problem best, when it is not the judged one (e.g. the retry). */
  readonly evidence?: { readonly request: SentRequest; readonly response: ReceivedResponse };
}

export type Verdict = { readonly outcome: 'pass' } | ({ readonly outcome: 'fail' | 'warn' } & Problem);

/** `Id` is the check's own literal id, so that the registry's ids make the CheckId type. */
export interface Check<Id extends string = string> {
  readonly id: Id;
  readonly title: string;
  /** One line, the same in docs/checks.md, the console and JUnit. */
  readonly description: string;
  /** The verdict on one exchange, or undefined when the exchange is none of this check's business. */
  judge(exchange: Exchange, context: CheckContext): Verdict | undefined;
  /** Compiles what judging this operation's answers needs (schemas), once, at start-up rather than at its first answer. */
  prepare?(operation: Operation): void;
}

export const PASS: Verdict = { outcome: 'pass' };

export function fail(problem: Problem): Verdict {
  return { outcome: 'fail', ...problem };
}

export function warn(problem: Problem): Verdict {
  return { outcome: 'warn', ...problem };
}
