/**
 * The face of src/server/incidents/: what other modules may use of it (docs/decisions/0020). Its work is
 * in incidents.ts (opening an incident, the public look-up), and each job's file.
 */
export * from './incidents.ts';
export { touchIncident } from './activity.ts';
export {
  AssigneeNotFoundError,
  assignIncident,
  assigneeOf,
  currentAssignee,
  isCurrentStaff,
  listAssignableStaff,
  staffLabel,
  type Assignee,
  type AssignmentOutcome,
} from './assignment.ts';
export { calendarOf } from './clock-calendar.ts';
export {
  clockColumnsOf,
  incidentClocks,
  loadResponseTimes,
  onTimeSummary,
  overdueChecker,
  saveResponseTimes,
} from './clock.ts';
export {
  AnswerNotFoundError,
  FollowUpClosedError,
  acceptUnverifiedAnswer,
  addNote,
  answerFromCustomer,
  incidentByNumber,
  recordCustomerAnswer,
  replyToCustomer,
  staffTimeline,
  type ReplyMailOutcome,
} from './conversation.ts';
export { exportIncidentsCsv } from './csv.ts';
export {
  attachmentForToken,
  followUpByToken,
  incidentIdByToken,
  issueFollowUpToken,
  shownToCustomer,
  type FollowUp,
} from './follow-up.ts';
export { historyText, loadHistories } from './history.ts';
export { insertImportedIncident } from './imported.ts';
export {
  exportIncidents,
  importIncident,
  type ExportedAttachment,
  type ExportedIncident,
  type ExportedIncidentAssignment,
  type ExportedIncidentEntry,
  type ExportedIncidentMail,
  type ExportedIncidentPriorityChange,
  type ExportedIncidentRating,
  type ExportedIncidentToken,
  type IncidentImportContext,
} from './transfer.ts';
export { hashLinkToken, isLinkToken, newLinkToken } from './link-token.ts';
export {
  DEFAULT_CUSTOMER_MAIL_DAILY_CAP,
  reserveCustomerMail,
  sendStaffDigestIfDue,
  type CustomerMailRefusal,
} from './notices.ts';
export { setIncidentPriority } from './priority.ts';
export { incidentQueryString, parseIncidentQuery, type IncidentFilters } from './query.ts';
export {
  issueRatingToken,
  rateFromFollowUp,
  rateResolution,
  rateResolutionIn,
  ratingLink,
  type RatingLink,
} from './rating.ts';
export { countIncidentsByState, listIncidents } from './search.ts';
export { setIncidentState } from './state.ts';
