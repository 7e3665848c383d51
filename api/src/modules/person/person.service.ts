/**
 * A person's record and houses as the staff console reads them (SPEC §2 "edit profile", §3
 * "Person asset"): each is the repository's query as it stands, scoped to the caller's estate.
 */
export { findPerson, updatePerson, type PersonChanges } from './person.repository';
export { personAssets } from './person-house.repository';
