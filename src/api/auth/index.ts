// Authentication and authorization of API calls: roles from client certificates, the method rule table,
// and the maintenance-mode reader.
export { type ApiMode, authorize, isAllowed } from './authorize.js';
export {
  type Caller,
  callerFromCertificate,
  checkClientUsage,
  isKnownRole,
  MAINTENANCE_CALLER,
  ROLE_METADATA_KEY,
  rolesFromOrganizations,
  splitMetadataList,
} from './roles.js';
export { FALLBACK_ROLES, MAINTENANCE_WRITES, METHOD_RULES, rolesFor } from './rules.js';
