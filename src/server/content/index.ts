/**
 * The face of src/server/content: what other modules may use of it (issue 37's import rule).
 */

export {
  activeAnnouncements,
  announcementById,
  createAnnouncement,
  deleteAnnouncement,
  listAnnouncements,
  updateAnnouncement,
  type Announcement,
  type VersionedOutcome,
} from './announcements.ts';
export {
  ArticleRefusal,
  articleById,
  articleBySlug,
  articleFields,
  articleFieldsRow,
  articleRevisions,
  createArticle,
  listArticles,
  publicArticles,
  publishArticle,
  recordRevision,
  redirectFor,
  restoreRevision,
  scheduleArticle,
  toArticle,
  toRevision,
  unpublishArticle,
  updateArticle,
  type Article,
  type ArticleOutcome,
} from './articles.ts';
export { contentChanged, contentSettled } from './changes.ts';
export {
  clientLogoById,
  createClientLogo,
  deleteClientLogo,
  listClientLogos,
  moveClientLogo,
  reorderClientLogos,
  setClientLogoVisible,
  shownClientLogos,
  updateClientLogo,
  uploadedLogoPath,
  type ClientLogo,
} from './client-logos.ts';
export { searchHelp } from './help-search.ts';
export {
  ArticleImageRefusal,
  articleImageFile,
  newArticleImageKey,
  processArticleImage,
  storeArticleImage,
} from './images.ts';
export { prepareLogoImage, type LogoImage } from './logo-image.ts';
export { importMarkdownArticles } from './markdown-import.ts';
export {
  PREVIEW_HEADERS,
  PREVIEW_PARAM,
  createPreviewLink,
  previewArticle,
  type PreviewAccess,
} from './preview.ts';
export { startPublicPages, type PublicPages } from './public-pages.ts';
export { renderArticleHtml } from './render.ts';
export { revisionDiff, type RevisionDiff } from './revision-diff.ts';
export { CLIENT_ASSETS_DIR, declaredSvgSize, importAnnouncements, importClientLogos } from './site-import.ts';
export {
  CARD_FONT,
  CARD_HEIGHT,
  CARD_WIDTH,
  cardBackground,
  cardLogo,
  cardPng,
  escapeXml,
} from './social-card.ts';
export { recordVote, voteCounts, type VoteCounts } from './votes.ts';
export {
  exportArticleImages,
  exportArticles,
  importArticle,
  importArticleImages,
  type ArticleImageIds,
  type ExportedArticle,
  type ExportedArticleFields,
  type ExportedArticleImage,
  type ExportedArticleRevision,
} from './article-transfer.ts';
export {
  clientLogosInOrder,
  exportAnnouncements,
  exportClientLogos,
  exportContentImports,
  importAnnouncement,
  importClientLogo,
  importContentImports,
  type ExportedAnnouncement,
  type ExportedClientLogo,
} from './site-transfer.ts';
