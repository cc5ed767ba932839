/**
 * 'Reunión' (`meetings.schedule`) and 'Cancelar reunión' (`meetings.cancel`), posted to the client's
 * meeting page. A sent invitation or cancellation goes back to the client page (303).
 */
import { randomUUID } from 'node:crypto';
import { checkMeetingForm, MEETING_FIELD_NAMES } from '../../domain/forms/meeting.ts';
import { getDb } from '../../server/db/index.ts';
import { mailBrand } from '../../server/mail/index.ts';
import { cancelMeeting, MEETING_REQUEST_PATTERN, scheduleMeeting } from '../../server/meetings/index.ts';
import { field, readForm, refuse } from '../form.ts';
import { clientDone, clientId } from './clients.ts';
import { INTERNAL_MESSAGE, staffForm, type StaffCall } from './common.ts';

const CLIENT_NOT_FOUND = 'El cliente no existe.';

const organizer = ({ staff }: StaffCall) => ({ id: staff.id, email: staff.email, name: staff.name });

export const schedule = staffForm('meetings.schedule', INTERNAL_MESSAGE, async (form, call) => {
  const id = clientId(form, call.context);
  const checked = checkMeetingForm(readForm(form, MEETING_FIELD_NAMES));
  if (!checked.ok)
    refuse('BAD_REQUEST', 'No se envió la invitación. Revisa los campos marcados.', checked.errors);
  // The form's request id becomes the meeting's UID: the same form sent twice sends one invitation.
  const posted = field(form, 'solicitud');
  const requestId = MEETING_REQUEST_PATTERN.test(posted) ? posted : randomUUID();
  const outcome = await scheduleMeeting(getDb(), {
    clientId: id,
    organizer: organizer(call),
    meeting: checked.meeting,
    brand: mailBrand(),
    audit: call.actor,
    requestId,
  });
  if (outcome.kind === 'sent') return clientDone(id, 'reunion', '#reuniones');
  if (outcome.kind === 'archived')
    refuse('CONFLICT', 'El cliente está archivado. Restáurelo para enviarle una reunión.');
  return refuse('NOT_FOUND', CLIENT_NOT_FOUND);
});

export const cancel = staffForm('meetings.cancel', INTERNAL_MESSAGE, async (form, call) => {
  const id = clientId(form, call.context);
  const meetingId = Number(field(form, 'reunion'));
  const outcome = Number.isInteger(meetingId)
    ? await cancelMeeting(getDb(), {
        clientId: id,
        meetingId,
        staff: organizer(call),
        brand: mailBrand(),
        audit: call.actor,
      })
    : ({ kind: 'not-found' } as const);
  if (outcome.kind === 'cancelled') return clientDone(id, 'reunion-cancelada', '#reuniones');
  return refuse(
    'CONFLICT',
    outcome.kind === 'not-upcoming'
      ? 'Esa reunión ya estaba cancelada o ya terminó: no se envió nada.'
      : 'No se encontró esa reunión de este cliente.',
  );
});

export const meetingActions = { schedule, cancel };
