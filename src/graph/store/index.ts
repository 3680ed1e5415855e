// The organisation store's facade (docs/organisation.md): the CLI imports the store from here only.
// It stays out of the engine's facade so that the extension and its graph worker, which never
// open a store, do not carry the `pg` client.

export { connectStore, storeError } from './connection';
export { migrate, STORE_SCHEMA_VERSION } from './schema';
export { checkRepositoryKey, pushGraph } from './push';
export { publishedPackages } from './published';
export { answerFromStore } from './queries';
export { otherRepositoryCallers } from './inbound-queries';
export { qualify, splitQualified } from './qualified';
