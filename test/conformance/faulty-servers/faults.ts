/**
 * The named faults of the Plant Store double. Each deviates from the correct
 * double in exactly one way, so the check that trips on it is the one that
 * proves it can fail.
 */

export const FAULTS = {
  'accepts-missing-id': 'a body without "id" is accepted with 200',
  'accepts-fractional-id': 'an "id" such as 1.5 is accepted (rounded down) instead of refused',
  'accepts-id-beyond-int64': 'an integer "id" outside int64 is accepted instead of refused',
  'answers-201': 'a created plant is answered 201 instead of the declared 200',
  'answers-422-for-schema-violations': 'a body that breaks the NewPlant schema is answered 422, which is not declared',
  'string-error-code': 'Error bodies carry "error" as a string ("400") instead of an integer',
  'error-code-beyond-int32': 'Error bodies carry an "error" code outside int32',
  'error-without-message': 'Error bodies lack the required "message"',
  '500-on-non-ascii-name': 'a valid plant whose name has a non-ASCII character gets a 500',
  'hangs-on-malformed-json': 'a body that is not JSON is never answered',
  'drops-connection-on-empty-body': 'an empty body makes the server drop the connection without an answer',
  'loses-int64-precision': 'ids are stored as JS numbers, so 2^53+1 collides with 2^53 and is refused as a duplicate',
  'accepts-without-token': 'requests without a bearer token are served as if authorised',
  'accepts-empty-bearer-token': 'an Authorization header of "Bearer " (no token) is accepted',
  'accepts-any-auth-scheme': 'any Authorization scheme (e.g. Basic) with a credential is accepted',
  'answers-401-for-missing-token': 'a missing token is answered 401 instead of the declared 400 (allowed by HTTP, not by the document)',
  'constant-name': 'a created plant is echoed with name "string" whatever was sent',
  'omits-tag': 'a created plant is echoed without the "tag" that was sent',
  'text-plain-success': 'a created plant is answered with content-type text/plain',
  'text-plain-errors': 'Error answers come with content-type text/plain',
  'rejects-empty-name': 'a plant with name "" is refused with 400',
  'rejects-extra-properties': 'a body with properties beyond name/tag/id is refused with 400',
  'accepts-duplicate-ids': 'nothing is stored: every valid create gets 200, a re-sent id too',
  'forgets-plants': 'only the last 3 ids are kept, so an older id can be created again',
} as const satisfies Record<string, string>;

export type FaultName = keyof typeof FAULTS;

export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

/** How many ids the "forgets-plants" store keeps: small so a short sequence reaches past it. */
export const FORGETFUL_CAPACITY = 3;
