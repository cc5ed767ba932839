/**
 * The face of src/server/views: what other modules may use of it (issue 37's import rule).
 */

export { articleRoute, previewDatePrefix } from './article-route.ts';
export {
  articleEditorView,
  articleImageView,
  blogArticlesView,
  contentListView,
  helpArticlesView,
  helpCentreView,
  helpSearchView,
  helpSuggestionsView,
  helpTagAnchor,
  markdownPreview,
} from './content.ts';
export {
  announcementAdminView,
  announcementsAdminView,
  logoAdminView,
  logoWallView,
  logosAdminView,
  toastView,
} from './site-content.ts';
export {
  clientListView,
  clientPageView,
  clientView,
  inboundPanelView,
  incidentListView,
  incidentPageView,
  meetingToCancelView,
  messageListView,
  pendingEnrolmentView,
  responseTimesView,
  savedRepliesForIncidentView,
  savedRepliesView,
  searchView,
  settingsView,
  staffAttachmentResponse,
  staffHomeView,
} from './staff.ts';
export { followUpView, ratingView, customerAttachmentResponse } from './support.ts';

export { publicHoursView } from './site-content.ts';
