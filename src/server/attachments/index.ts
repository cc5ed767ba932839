/**
 * The face of src/server/attachments/: what other modules may use of it (docs/decisions/0020). Its work is
 * in attachments.ts (the one writer of blobs and incident_attachments and their readers), and each job's file.
 */
export * from './attachments.ts';
export { attachmentsByEntry, droppedText } from './list.ts';
export { prepareFiles, sniffType, type IncomingFile, type PreparedFile, type RefusedFile } from './files.ts';
export { storeBlobs, type BlobWriter } from './blob-store.ts';
export { publicUploadFits, reservePublicUpload } from './budget.ts';
export { keepFiles, keptFilesOf, purgeUnusedBlobs } from './kept.ts';
export { UploadPace } from './pace.ts';
export { isMultipart, readUploadForm } from './upload.ts';
export { exportAttachmentBlobs } from './transfer.ts';
