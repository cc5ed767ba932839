/**
 * Astro Actions: thin adapters from HTTP to src/server. Public: `incidents.create`, `incidents.track`,
 * `incidents.answer` (the visitor's answer on the follow-up page opened with a token), `incidents.rate`
 * (the customer's rating of a resolution, /soporte/valoracion), `contact.send` (all `accept: 'form'`, so the same actions serve the islands and plain HTML forms).
 * Staff (src/actions/staff/, one file per area, each guarded): the fixed interface's
 * `incidents.setState`, `clients.create`, `clients.sendWelcome`, and every staff page's form. Sign-in:
 * `login.password`, `login.code` (src/actions/login.ts). Forms posted from pages run in the middleware
 * (src/actions/form.ts): post/redirect/get on success, the page again with the values on a refusal.
 */
import { ActionError, defineAction } from 'astro:actions';
import { CONTACT_MESSAGES, contactFormSchema } from '../domain/forms/contact.ts';
import { INCIDENT_MESSAGES, incidentFormSchema } from '../domain/forms/incident.ts';
import { RATING_MESSAGES, ratingFormSchema } from '../domain/forms/rating.ts';
import { rateFromFollowUp, rateResolution } from '../server/incidents/index.ts';
import {
  answerFormSchema,
  FOLLOW_UP_CLOSED_MESSAGE,
  TRACKING_NOT_FOUND,
  trackingFormSchema,
} from '../domain/forms/tracking.ts';
import { getConfig } from '../server/config.ts';
import { saveContactMessage } from '../server/contact/index.ts';
import { getDb } from '../server/db/index.ts';
import { answerFromCustomer, FollowUpClosedError } from '../server/incidents/index.ts';
import { createIncident, IncidentNumbersExhaustedError, trackIncident } from '../server/incidents/index.ts';
import { getLogger } from '../server/log.ts';
import { mailBrand } from '../server/mail/index.ts';
import { seeOtherTo } from './form.ts';
import { ROUTES } from '../routes.ts';
import { answerWith, requireHuman, requireWithinEmailLimit, requireWithinRateLimit } from './guards.ts';
import { loginActions } from './login.ts';
import { filesOfSubmission, throwUploadRefusal } from './uploads.ts';
import { staffActions } from './staff/index.ts';

export const server = {
  incidents: {
    create: defineAction({
      accept: 'form',
      input: incidentFormSchema,
      handler: async (input, context) => {
        throwUploadRefusal(context);
        requireHuman(context, input, 'incidents.create');
        return answerWith('incidents.create', INCIDENT_MESSAGES.failure, async () => {
          if (!context.locals.uploads?.rateCounted) await requireWithinRateLimit(context, 'incidents.create');
          const files = await filesOfSubmission(context, 'incidents.create');
          const config = getConfig();
          try {
            const { numeroIncidencia, estado, fecha, customerMail, staffNotice } = await createIncident(
              getDb(),
              {
                problema: input.problema,
                nombre: input.nombre,
                telefono: input.telefono,
                email: input.email,
                rnc: input.rnc,
              },
              {
                brand: mailBrand(config),
                staffInbox: config.STAFF_INBOX,
                customerMailDailyCap: config.VISITOR_MAIL_DAILY_CAP,
                files,
              },
            );
            getLogger().info(
              { event: 'incident.created', numeroIncidencia, customerMail, staffNotice, files: files.length },
              'incident created',
            );
            if (customerMail === 'address-cap' || customerMail === 'daily-cap') {
              getLogger().warn(
                {
                  event: 'mail.skipped',
                  kind: 'incident.confirmation',
                  numeroIncidencia,
                  reason: customerMail,
                },
                'visitor mail skipped: cap reached',
              );
            }
            return { numeroIncidencia, estado, fecha };
          } catch (error) {
            if (error instanceof IncidentNumbersExhaustedError) {
              getLogger().error({ error: error.message }, 'incident numbers exhausted');
              throw new ActionError({
                code: 'SERVICE_UNAVAILABLE',
                message:
                  'Hoy ya no podemos registrar más incidencias en línea. Escríbenos por WhatsApp o llámanos y te atendemos de inmediato.',
              });
            }
            throw error;
          }
        });
      },
    }),
    track: defineAction({
      accept: 'form',
      input: trackingFormSchema,
      handler: async (input, context) => {
        requireHuman(context, input, 'incidents.track', false);
        return answerWith(
          'incidents.track',
          'No pudimos consultar la incidencia en este momento. Intenta nuevamente.',
          async () => {
            // Looking up is lighter than submitting, but still limited: it must not become a guessing oracle.
            await requireWithinRateLimit(context, 'incidents.track', 2);
            await requireWithinEmailLimit(input.email, 'incidents.track');
            const incident = await trackIncident(getDb(), input.numeroIncidencia, input.email);
            if (!incident) throw new ActionError({ code: 'NOT_FOUND', message: TRACKING_NOT_FOUND });
            return incident;
          },
        );
      },
    }),
    answer: defineAction({
      accept: 'form',
      input: answerFormSchema,
      handler: async (input, context) => {
        throwUploadRefusal(context);
        requireHuman(context, input, 'incidents.answer');
        return answerWith(
          'incidents.answer',
          'No pudimos guardar tu respuesta en este momento. Intenta nuevamente.',
          async () => {
            if (!context.locals.uploads?.rateCounted)
              await requireWithinRateLimit(context, 'incidents.answer');
            const files = await filesOfSubmission(context, 'incidents.answer');
            const config = getConfig();
            const stored = await answerFromCustomer(getDb(), {
              token: input.token,
              body: input.respuesta,
              brand: mailBrand(config),
              staffInbox: config.STAFF_INBOX,
              staffEmails: config.ADMIN_EMAILS,
              files,
            }).catch((error: unknown) => {
              if (error instanceof FollowUpClosedError)
                throw new ActionError({ code: 'FORBIDDEN', message: FOLLOW_UP_CLOSED_MESSAGE });
              throw error;
            });
            if (!stored) throw new ActionError({ code: 'NOT_FOUND', message: TRACKING_NOT_FOUND });
            getLogger().info(
              {
                event: 'incident.answer',
                numeroIncidencia: stored.numeroIncidencia,
                reopened: stored.reopened,
                notified: stored.notified,
              },
              'visitor answer stored',
            );
            // Posted from the follow-up page: back to it (a reload does not post it again) with the confirmation.
            // No fragment: the confirmation is focused with autofocus, which a fragment would cancel.
            return {
              numeroIncidencia: stored.numeroIncidencia,
              ...seeOtherTo(
                `${ROUTES.supportTracking}?token=${encodeURIComponent(input.token)}&respuesta=enviada`,
              ),
            };
          },
        );
      },
    }),
    rate: defineAction({
      accept: 'form',
      input: ratingFormSchema,
      handler: async (input, context) => {
        requireHuman(context, input, 'incidents.rate');
        return answerWith('incidents.rate', RATING_MESSAGES.failure, async () => {
          await requireWithinRateLimit(context, 'incidents.rate');
          const stored = await rateResolution(getDb(), {
            token: input.token,
            valor: Number(input.valor),
            comentario: input.comentario,
          });
          if (stored.status === 'not-found')
            throw new ActionError({ code: 'NOT_FOUND', message: RATING_MESSAGES.notFound });
          if (stored.status === 'used')
            throw new ActionError({ code: 'CONFLICT', message: RATING_MESSAGES.used });
          if (stored.status === 'expired')
            throw new ActionError({ code: 'FORBIDDEN', message: RATING_MESSAGES.expired });
          getLogger().info(
            {
              event: 'incident.rating',
              numeroIncidencia: stored.numeroIncidencia,
              valor: Number(input.valor),
            },
            'rating stored',
          );
          // Back to the page without the token (a reload posts nothing and opens nothing) with the thanks.
          return {
            numeroIncidencia: stored.numeroIncidencia,
            ...seeOtherTo(`${ROUTES.supportRating}?valoracion=enviada`),
          };
        });
      },
    }),
    // The same rating from the follow-up page, by the holder of its link (issue 39 §11): `token` is the
    // follow-up token, never a rating link's; back to that page with the thanks.
    rateFollowUp: defineAction({
      accept: 'form',
      input: ratingFormSchema,
      handler: async (input, context) => {
        requireHuman(context, input, 'incidents.rateFollowUp');
        return answerWith('incidents.rateFollowUp', RATING_MESSAGES.failure, async () => {
          await requireWithinRateLimit(context, 'incidents.rate');
          const stored = await rateFromFollowUp(getDb(), {
            followUpToken: input.token,
            valor: Number(input.valor),
            comentario: input.comentario,
          });
          if (stored.status === 'not-found')
            throw new ActionError({ code: 'NOT_FOUND', message: TRACKING_NOT_FOUND });
          if (stored.status === 'used')
            throw new ActionError({ code: 'CONFLICT', message: RATING_MESSAGES.used });
          if (stored.status === 'expired')
            throw new ActionError({ code: 'FORBIDDEN', message: RATING_MESSAGES.followUpExpired });
          if (stored.status === 'not-resolved')
            throw new ActionError({ code: 'CONFLICT', message: RATING_MESSAGES.notResolved });
          getLogger().info(
            {
              event: 'incident.rating',
              numeroIncidencia: stored.numeroIncidencia,
              valor: Number(input.valor),
              from: 'follow-up',
            },
            'rating stored',
          );
          return {
            numeroIncidencia: stored.numeroIncidencia,
            ...seeOtherTo(
              `${ROUTES.supportTracking}?token=${encodeURIComponent(input.token)}&valoracion=enviada`,
            ),
          };
        });
      },
    }),
    ...staffActions.incidents,
  },
  contact: {
    send: defineAction({
      accept: 'form',
      input: contactFormSchema,
      handler: async (input, context) => {
        requireHuman(context, input, 'contact.send');
        return answerWith('contact.send', CONTACT_MESSAGES.failure, async () => {
          await requireWithinRateLimit(context, 'contact.send');
          const config = getConfig();
          const saved = await saveContactMessage(
            getDb(),
            { name: input.name, email: input.email, message: input.message },
            {
              brand: mailBrand(config),
              staffInbox: config.STAFF_INBOX,
              customerMailDailyCap: config.VISITOR_MAIL_DAILY_CAP,
            },
          );
          getLogger().info(
            { event: 'contact.stored', contactMessageId: saved.id, confirmation: saved.confirmation },
            'contact message stored',
          );
          if (saved.confirmation === 'address-cap' || saved.confirmation === 'daily-cap') {
            getLogger().warn(
              {
                event: 'mail.skipped',
                kind: 'contact.confirmation',
                contactMessageId: saved.id,
                reason: saved.confirmation,
              },
              'visitor mail skipped: cap reached',
            );
          }
          return { ok: true as const };
        });
      },
    }),
  },
  clients: staffActions.clients,
  meetings: staffActions.meetings,
  messages: staffActions.messages,
  settings: staffActions.settings,
  inbound: staffActions.inbound,
  replies: staffActions.replies,
  responseTimes: staffActions.responseTimes,
  content: staffActions.content,
  announcements: staffActions.announcements,
  logos: staffActions.logos,
  login: loginActions,
};
