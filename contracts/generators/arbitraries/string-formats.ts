/** Strings of the formats the generators know (date-time, email, uuid, ...). */
import fc from 'fast-check';
import { WEB_URL } from './web-url.js';

const DATE_RANGE = fc.date({ min: new Date('0001-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });

/** Formats generated as such; any other format is left alone (a plain string is generated). */
export const STRING_FORMATS: Readonly<Record<string, () => fc.Arbitrary<string>>> = {
  'date-time': () => DATE_RANGE.map((d) => d.toISOString()),
  date: () => DATE_RANGE.map((d) => d.toISOString().slice(0, 10)),
  time: () => DATE_RANGE.map((d) => d.toISOString().slice(11)),
  email: () => fc.emailAddress(),
  'idn-email': () => fc.emailAddress(),
  uuid: () => fc.uuid(),
  uri: () => WEB_URL,
  url: () => WEB_URL,
  'uri-reference': () => WEB_URL,
  iri: () => WEB_URL,
  'iri-reference': () => WEB_URL,
  'uri-template': () => WEB_URL,
  ipv4: () => fc.ipV4(),
  ipv6: () => fc.ipV6(),
  hostname: () => fc.domain(),
  'idn-hostname': () => fc.domain(),
  byte: () => fc.base64String(),
  duration: () => fc.constantFrom('P1D', 'PT1H', 'P1Y2M3DT4H5M6S', 'P4W', 'PT36H'),
  'json-pointer': () => fc.constantFrom('', '/a', '/a~1b/0', '/~0'),
  'relative-json-pointer': () => fc.constantFrom('0', '1/a', '2#'),
  regex: () => fc.constantFrom('^a+$', '.*', '[0-9]{2,3}'),
};
