/**
 * Who works on an incident (issue 11): 'Asignar a' on the staff incident page. Each change sets
 * `incidents.assigned_to`, adds a row to the timeline (`incident_assignments`: who assigned whom,
 * when), touches the incident's activity and records an audit event, all in one transaction; the
 * assignee's mail (unless they assigned it to themselves) is queued in that same transaction.
 *
 * Only current staff can be assigned: an account whose e-mail left `ADMIN_EMAILS` keeps its row in
 * Better Auth's `user` table (and the incidents already assigned to it), but is not offered, cannot be
 * chosen, and its incidents say so ({@link assigneeOf}); customers' answers on them go to the staff
 * inbox ({@link currentAssignee}).
 */
import { getConfig } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { IncidentAssignment } from '../db/index.ts';
import type { AuditActor } from '../audit/index.ts';
import { enqueueMail } from '../mail/index.ts';
import { staffDisplayName } from '../auth/index.ts';
import { incidentAssignedMail } from '../mail/index.ts';
import type { MailBrand } from '../mail/index.ts';
import { recordStaffChange } from './activity.ts';
import type { EntryAuthor } from './conversation.ts';
import { IncidentNotFoundError } from './errors.ts';
import { isCurrentStaff } from './staff-list.ts';

/** A staff account as the 'Asignar a' dropdown lists it. */
export interface AssignableStaff {
  id: string;
  email: string;
  name: string;
}

/** The chosen account does not exist, or is no longer staff (removed meanwhile, or a forged form). */
export class AssigneeNotFoundError extends Error {
  override name = 'AssigneeNotFoundError';
}

/** `ADMIN_EMAILS` as the server has it (lower case): who is staff now. */
const currentStaff = (): readonly string[] => getConfig().ADMIN_EMAILS;

/** The accounts 'Asignar a' offers: those on `ADMIN_EMAILS` (default: the server's), by e-mail. */
export async function listAssignableStaff(
  db: Db,
  staffEmails: readonly string[] = currentStaff(),
): Promise<AssignableStaff[]> {
  const accounts = await db
    .withoutPlugins()
    .selectFrom('user')
    .select(['id', 'email', 'name'])
    .orderBy('email')
    .execute();
  return accounts.filter((account) => isCurrentStaff(account.email, staffEmails));
}

/**
 * Who an incident is assigned to, for its page: nobody; a staff member; an account that is no longer
 * staff ('Asignada a una cuenta sin acceso'); or an account removed since (its id stays on the
 * incident until someone reassigns it).
 */
export type Assignee =
  | { kind: 'none' }
  | { kind: 'staff'; account: AssignableStaff }
  | { kind: 'no-access'; account: AssignableStaff }
  | { kind: 'deleted' };

export async function assigneeOf(
  db: Db,
  assignedTo: string | null,
  staffEmails: readonly string[] = currentStaff(),
): Promise<Assignee> {
  if (!assignedTo) return { kind: 'none' };
  const account = await db
    .withoutPlugins()
    .selectFrom('user')
    .select(['id', 'email', 'name'])
    .where('id', '=', assignedTo)
    .executeTakeFirst();
  if (!account) return { kind: 'deleted' };
  return { kind: isCurrentStaff(account.email, staffEmails) ? 'staff' : 'no-access', account };
}

/**
 * Who hears of an incident's news (a customer's answer, a complaint about our mail): its assignee while
 * their e-mail is on `ADMIN_EMAILS` (default: the server's); undefined when nobody is assigned, the
 * account is gone or no longer staff, and the caller then writes to the staff inbox.
 */
export async function currentAssignee(
  db: Db,
  assignedTo: string | null,
  staffEmails: readonly string[] = currentStaff(),
): Promise<{ email: string } | undefined> {
  if (!assignedTo) return undefined;
  const account = await db
    .withoutPlugins()
    .selectFrom('user')
    .select('email')
    .where('id', '=', assignedTo)
    .executeTakeFirst();
  return account && isCurrentStaff(account.email, staffEmails) ? account : undefined;
}

/** How an account is named in the dropdown and the header: 'Name · e-mail', or the e-mail alone. */
export function staffLabel(account: Pick<AssignableStaff, 'email' | 'name'>): string {
  const name = account.name.trim();
  return name && name !== account.email ? `${name} · ${account.email}` : account.email;
}

/** What an assignment did: nothing (already so), or assigned, with or without the assignee's mail. */
export type AssignmentOutcome = 'unchanged' | 'unassigned' | 'self' | 'mailed';

/**
 * Assigns the incident to `assigneeId` (null: 'Sin asignar'), who must be current staff (else
 * {@link AssigneeNotFoundError}, nothing changed). Assigning it to whom it already has is not recorded
 * again. The assignee is mailed with the incident's link unless they are the actor.
 */
export async function assignIncident(
  db: Db,
  input: {
    incidentId: number;
    assigneeId: string | null;
    actor: EntryAuthor;
    brand: MailBrand;
    audit?: AuditActor;
    /** `ADMIN_EMAILS` (default: the server's): only these accounts can be assigned. */
    staffEmails?: readonly string[];
  },
  now: Date = new Date(),
): Promise<{ outcome: AssignmentOutcome; assignee: AssignableStaff | null }> {
  const staffEmails = input.staffEmails ?? currentStaff();
  const result = await db.transaction().execute(async (trx) => {
    const incident = await trx
      .selectFrom('incidents')
      .select(['id', 'numeroIncidencia', 'nombre', 'assignedTo'])
      .where('id', '=', input.incidentId)
      .executeTakeFirst();
    if (!incident) throw new IncidentNotFoundError(`No existe la incidencia ${input.incidentId}`);
    let assignee: AssignableStaff | null = null;
    if (input.assigneeId !== null) {
      assignee =
        (await trx
          .withoutPlugins()
          .selectFrom('user')
          .select(['id', 'email', 'name'])
          .where('id', '=', input.assigneeId)
          .executeTakeFirst()) ?? null;
      if (!assignee) throw new AssigneeNotFoundError(`No existe la cuenta ${input.assigneeId}`);
      if (!isCurrentStaff(assignee.email, staffEmails))
        throw new AssigneeNotFoundError(`La cuenta ${assignee.email} ya no está en ADMIN_EMAILS`);
    }
    if ((incident.assignedTo ?? null) === input.assigneeId)
      return { outcome: 'unchanged' as const, assignee };
    await trx
      .updateTable('incidents')
      .set({ assignedTo: input.assigneeId })
      .where('id', '=', incident.id)
      .execute();
    await trx
      .insertInto('incidentAssignments')
      .values({
        incidentId: incident.id,
        assigneeId: assignee?.id ?? null,
        assigneeEmail: assignee?.email ?? null,
        assignedById: input.actor.id,
        assignedByEmail: input.actor.email,
        createdAt: now.toISOString(),
      })
      .execute();
    await recordStaffChange(
      trx,
      incident,
      { kind: 'assignment', action: 'incident.assigned', detail: assignee ? assignee.email : 'Sin asignar' },
      input.actor,
      input.audit,
      now,
    );
    if (!assignee) return { outcome: 'unassigned' as const, assignee };
    if (assignee.id === input.actor.id) return { outcome: 'self' as const, assignee };
    await enqueueMail(
      trx,
      {
        kind: 'incident.assigned',
        ...incidentAssignedMail(input.brand, assignee, incident, staffDisplayName(input.actor)),
      },
      now,
    );
    return { outcome: 'mailed' as const, assignee };
  });
  return result;
}

/** The incident's assignments, oldest first. */
export async function loadAssignments(db: Db, incidentId: number): Promise<IncidentAssignment[]> {
  return db
    .selectFrom('incidentAssignments')
    .selectAll()
    .where('incidentId', '=', incidentId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
}

export { isCurrentStaff } from './staff-list.ts';
