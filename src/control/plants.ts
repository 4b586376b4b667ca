/**
 * `/__control/plants…`: the routes of `/__control/resources/plants/items…` (items.ts) under the
 * names the control API first had. All that is the plants' own: the collection is fixed, and an
 * item is called a plant in a refusal ("no plant has id 5").
 */
import { INT64_MAX, INT64_MIN } from '../core/json/int64.js';
import type { Resource } from '../core/resources/model.js';
import { PLANTS } from '../store/plant-store.js';
import { inCollection, itemRoutes } from './items.js';

export { LIST_LIMITS } from './pages.js';

/**
 * The plants when the served document has no resource of that name (not the Plant Store): ids
 * the client gives, any int64; the control document's NewPlant is the only check of a seed.
 */
const PLANTS_WITHOUT_DOCUMENT: Resource = {
  name: PLANTS,
  collectionPath: `/${PLANTS}`,
  parentParameters: [],
  identifier: { property: 'id', assignedBy: 'client', type: { kind: 'integer', minimum: INT64_MIN, maximum: INT64_MAX } },
  operations: {},
  webhooks: [],
  source: 'inferred',
};

const routes = itemRoutes(({ request }, { resources }) =>
  inCollection(resources.resources.find((resource) => resource.name === PLANTS) ?? PLANTS_WITHOUT_DOCUMENT, request.query, 'plant'),
);
export const listPlants = routes.list;
export const seedPlants = routes.seed;
export const resetPlants = routes.reset;
export const getPlant = routes.get;
export const deletePlant = routes.remove;
