/**
 * Every migration, in order. Listed statically (rather than read from the folder at run time) so that
 * the same list works in the bundled server and in the command-line scripts.
 */
import type { Migration } from 'kysely/migration';
import * as initial from './0001_initial.ts';
import * as rateLimits from './0002_rate_limits.ts';
import * as staffAuth from './0003_staff_auth.ts';
import * as incidentListIndexes from './0004_incident_list_indexes.ts';
import * as limitCounters from './0005_limit_counters.ts';
import * as staffNoticeDigest from './0006_staff_notice_digest.ts';
import * as incidentTokens from './0007_incident_tokens.ts';
import * as auditLog from './0008_audit_log.ts';
import * as passwordChangeMark from './0009_password_change_mark.ts';
import * as twoFactor from './0010_two_factor.ts';
import * as incidentConversation from './0011_incident_conversation.ts';
import * as clientCrm from './0012_client_crm.ts';
import * as incidentActivity from './0013_incident_activity.ts';
import * as incidentAssignments from './0014_incident_assignments.ts';
import * as contactInbox from './0015_contact_inbox.ts';
import * as clientMeetings from './0016_client_meetings.ts';
import * as incidentActivityIndexes from './0017_incident_activity_indexes.ts';
import * as clientMatchIndexes from './0018_client_match_indexes.ts';
import * as incidentResolvedAt from './0019_incident_resolved_at.ts';
import * as incidentStateCounts from './0020_incident_state_counts.ts';
import * as totpLastStep from './0021_totp_last_step.ts';
import * as oneLimitTable from './0022_one_limit_table.ts';
import * as clientImportNonces from './0023_client_import_nonces.ts';
import * as inboundMail from './0024_inbound_mail.ts';
import * as attachments from './0025_attachments.ts';
import * as inboundReview from './0026_inbound_review.ts';
import * as savedReplies from './0027_saved_replies.ts';
import * as incidentRatings from './0028_incident_ratings.ts';
import * as incidentPriority from './0029_incident_priority.ts';
import * as search from './0030_search.ts';
import * as businessHoursClock from './0031_business_hours_clock.ts';
import * as liveEvents from './0032_live_events.ts';
import * as articles from './0033_articles.ts';
import * as articleRevisions from './0037_article_revisions.ts';
import * as searchStems from './0038_search_stems.ts';
import * as searchBulkTriggers from './0039_search_bulk_triggers.ts';
import * as acceptedAnswers from './0040_accepted_answers.ts';
import * as mailReports from './0041_mail_reports.ts';
import * as inboundOriginalParts from './0034_inbound_original_parts.ts';
import * as articleVotes from './0035_article_votes.ts';
import * as announcementsLogos from './0036_announcements_logos.ts';
import * as customerNotices from './0042_customer_notices.ts';
import * as whatsappInbound from './0043_whatsapp_inbound.ts';
import * as blockedSenders from './0044_blocked_senders.ts';
import * as whatsappEarlyStatuses from './0045_whatsapp_early_statuses.ts';

export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_rate_limits': rateLimits,
  '0003_staff_auth': staffAuth,
  '0004_incident_list_indexes': incidentListIndexes,
  '0005_limit_counters': limitCounters,
  '0006_staff_notice_digest': staffNoticeDigest,
  '0007_incident_tokens': incidentTokens,
  '0008_audit_log': auditLog,
  '0009_password_change_mark': passwordChangeMark,
  '0010_two_factor': twoFactor,
  '0011_incident_conversation': incidentConversation,
  '0012_client_crm': clientCrm,
  '0013_incident_activity': incidentActivity,
  '0014_incident_assignments': incidentAssignments,
  '0015_contact_inbox': contactInbox,
  '0016_client_meetings': clientMeetings,
  '0017_incident_activity_indexes': incidentActivityIndexes,
  '0018_client_match_indexes': clientMatchIndexes,
  '0019_incident_resolved_at': incidentResolvedAt,
  '0020_incident_state_counts': incidentStateCounts,
  '0021_totp_last_step': totpLastStep,
  '0022_one_limit_table': oneLimitTable,
  '0023_client_import_nonces': clientImportNonces,
  '0024_inbound_mail': inboundMail,
  '0025_attachments': attachments,
  '0026_inbound_review': inboundReview,
  '0027_saved_replies': savedReplies,
  '0028_incident_ratings': incidentRatings,
  '0029_incident_priority': incidentPriority,
  '0030_search': search,
  '0031_business_hours_clock': businessHoursClock,
  '0032_live_events': liveEvents,
  '0033_articles': articles,
  '0034_inbound_original_parts': inboundOriginalParts,
  '0035_article_votes': articleVotes,
  '0036_announcements_logos': announcementsLogos,
  '0037_article_revisions': articleRevisions,
  '0038_search_stems': searchStems,
  '0039_search_bulk_triggers': searchBulkTriggers,
  '0040_accepted_answers': acceptedAnswers,
  '0041_mail_reports': mailReports,
  '0042_customer_notices': customerNotices,
  '0043_whatsapp_inbound': whatsappInbound,
  '0044_blocked_senders': blockedSenders,
  '0045_whatsapp_early_statuses': whatsappEarlyStatuses,
};
