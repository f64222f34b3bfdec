// The probe ↔ ingest contract (`npm run gen`): import { IngestService } from '@upstate/proto/ingest'.
export * from './gen/upstate/ingest/v1/ingest_pb.ts';
