/**
 * Every route of the API, each declared once (declaration.ts), in the order agents read them:
 * the data routes, the key routes, then payments. What is derived from this list: the MCP tools,
 * llms.txt, x402 discovery, the home and pricing pages, and the 405 of other methods; OpenAPI
 * and /docs read the same declarations from the routes that serve them.
 */
import type { RouteDeclaration } from './declaration.ts';
import { batchRoute, extractRoute, fromAccountRoute, validateRoute } from './iban.ts';
import { claimRoute, generateRoute, rotateRoute, usageDailyRoute, usageRoute } from './keys.ts';
import { bicRoute, clearingRoute, complianceRoute } from './lookups.ts';
import { paymentCheckRoute } from './payment-check.ts';
import { createReferenceRoute, validateReferenceRoute } from './references.ts';
import { cancelRoute, checkoutRoute, packRoutes, successRoute, webhookRoute } from './payments.ts';

export const API_ROUTES: readonly RouteDeclaration[] = [
  validateRoute,
  batchRoute,
  fromAccountRoute,
  extractRoute,
  validateReferenceRoute,
  createReferenceRoute,
  paymentCheckRoute,
  bicRoute,
  complianceRoute,
  clearingRoute,
  usageRoute,
  generateRoute,
  rotateRoute,
  claimRoute,
  usageDailyRoute,
  checkoutRoute,
  cancelRoute,
  successRoute,
  webhookRoute,
  ...packRoutes.map(({ route }) => route),
];
