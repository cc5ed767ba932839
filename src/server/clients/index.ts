/**
 * The face of src/server/clients/: what other modules may use of it (docs/decisions/0020). Its work is
 * in records.ts (the client records: list, creation, the welcome flag), and each job's file.
 */
export * from './records.ts';
export {
  IMPORT_MAX_ROWS,
  ImportRefusal,
  checkImportSize,
  clientsCsv,
  importClients,
  previewImport,
  signUpload,
  uploadNonce,
  verifyUpload,
  type ImportRowStatus,
} from './csv.ts';
export { clientIncidents, incidentClients, type ClientIncident } from './match.ts';
export { ClientNotFoundError, deliverWelcomeMail, sendWelcome } from './welcome.ts';
export {
  exportClients,
  importClient,
  type ExportedClient,
  type ExportedClientEvent,
  type ExportedClientMeeting,
} from './transfer.ts';
