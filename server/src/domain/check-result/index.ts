export { ingestCheckResults } from './ingest.ts';
export { quorumStatus } from './quorum.ts';
export * from './schemas.ts';
