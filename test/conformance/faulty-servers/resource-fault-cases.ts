/** Which check must catch each fault of the resource servers, on which document. */
import type { CheckId } from '../../../contracts/report.js';
import type { ResourceFault, ResourceKind } from './resource-servers.js';

export interface ResourceFaultCase {
  readonly fault: ResourceFault;
  readonly kind: ResourceKind;
  readonly check: CheckId;
}

export const RESOURCE_FAULT_CASES: readonly ResourceFaultCase[] = [
  { fault: 'list-hides-creates', kind: 'plants', check: 'created-item-listed' },
  { fault: 'list-hides-creates', kind: 'pets', check: 'created-item-listed' },
  { fault: 'delete-does-nothing', kind: 'plants', check: 'deleted-item-not-listed' },
  { fault: 'delete-does-nothing', kind: 'pets', check: 'deleted-item-gone' },
  { fault: 'limit-ignored', kind: 'plants', check: 'list-limit-respected' },
  { fault: 'limit-ignored', kind: 'pets', check: 'list-limit-respected' },
  { fault: 'deleted-id-still-taken', kind: 'plants', check: 'deleted-id-reusable' },
  { fault: 'charset-refused', kind: 'plants', check: 'positive-acceptance' },
  { fault: 'read-ignores-store', kind: 'pets', check: 'deleted-item-gone' },
  { fault: 'read-finds-nothing', kind: 'pets', check: 'ensure-resource-availability' },
  { fault: 'edge-id-refused', kind: 'plants', check: 'positive-acceptance' },
  { fault: 'refuses-big-ids', kind: 'plants', check: 'positive-acceptance' },
  { fault: 'update-ignored', kind: 'crud', check: 'update-applied' },
  { fault: 'update-refused', kind: 'crud', check: 'update-applied' },
  { fault: 'given-id-ignored', kind: 'optional', check: 'response-reflects-request' },
  { fault: 'id-less-create-refused', kind: 'optional', check: 'positive-acceptance' },
  // Only the lifecycle's create without an id, read back, shows it: a fault of the 'either' mode itself.
  { fault: 'id-less-create-forgotten', kind: 'optional', check: 'ensure-resource-availability' },
  { fault: 'total-counts-page', kind: 'optional', check: 'list-total-counted' },
  { fault: 'rate-limit-not-a-number', kind: 'optional', check: 'response-headers-conformance' },
  // Judged by what was stored, not by a marker: issue 19's planted semantic defects.
  { fault: 'list-mangles-names', kind: 'plants', check: 'stored-content-shown' },
  { fault: 'list-mangles-names', kind: 'pets', check: 'stored-content-shown' },
  { fault: 'create-drops-tag', kind: 'pets', check: 'stored-content-shown' },
  { fault: 'read-returns-another', kind: 'pets', check: 'stored-content-shown' },
  { fault: 'negative-id-refused', kind: 'plants', check: 'positive-acceptance' },
  { fault: 'filter-ignored', kind: 'pets', check: 'list-filter-honoured' },
  { fault: 'filter-half-applied', kind: 'pets', check: 'list-filter-honoured' },
  { fault: 'duplicate-overwrites', kind: 'plants', check: 'stored-content-shown' },
  // The list after the delete without credentials shows the plant gone.
  { fault: 'delete-ignores-credentials', kind: 'plants', check: 'created-item-listed' },
];

export { LIFECYCLE_CHECKS } from '../../../contracts/checks/index.js';
