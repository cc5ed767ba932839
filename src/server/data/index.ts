/**
 * The face of src/server/data: what other modules may use of it (issue 37's import rule).
 */

export { exportCsv, exportData } from './export.ts';
export { importData, type ImportRefusal, type ImportSummary } from './import.ts';
