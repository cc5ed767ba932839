/**
 * Staff accounts: created or reset from the command line (`npm run admin`), and the first one made
 * on start when none exists. Public sign-up is off, so this is the only way in.
 */
import { randomBytes } from 'node:crypto';
import { getConfig, type Config } from '../config.ts';
import { getDb, type Db } from '../db/index.ts';
import { removeFirstPasswordOf } from './first-password.ts';
import { hashPassword } from './password.ts';
import { getAuth, isStaffEmail, type StaffAuth } from './auth.ts';
import { PASSWORD_PROBLEM_MESSAGES, passwordProblem } from './strength.ts';

export class StaffAccountError extends Error {
  override name = 'StaffAccountError';
}

export interface StaffAccount {
  id: string;
  email: string;
  name: string;
  createdAt: string;
  /** When the account last signed in (the audit log), or null. */
  lastSignInAt: string | null;
  /** Two-step verification is on. */
  twoStep: boolean;
}

/** Creates the account, or resets its password (ending every session it has, and lifting a two-step lock). */
export async function createOrResetStaff(
  input: { email: string; password: string; name?: string },
  auth: StaffAuth = getAuth(),
  config: Config = getConfig(),
): Promise<'created' | 'reset'> {
  const email = input.email.trim().toLowerCase();
  if (!isStaffEmail(email, config)) {
    throw new StaffAccountError(`${email} no está en ADMIN_EMAILS (${config.ADMIN_EMAILS.join(', ')}).`);
  }
  // The page's rules (length, common and guessable passwords), the message without "nueva".
  const problem = passwordProblem({ password: input.password, current: '', name: input.name ?? '', email });
  if (problem)
    throw new StaffAccountError(
      PASSWORD_PROBLEM_MESSAGES[problem].replace('La nueva contraseña', 'La contraseña'),
    );
  const context = await auth.$context;
  const adapter = context.internalAdapter;
  const hash = await hashPassword(input.password);
  const existing = await adapter.findUserByEmail(email, { includeAccounts: true });
  if (existing) {
    const credential = existing.accounts.find((account) => account.providerId === 'credential');
    if (credential) await adapter.updatePassword(existing.user.id, hash);
    else
      await adapter.linkAccount({
        userId: existing.user.id,
        providerId: 'credential',
        accountId: existing.user.id,
        password: hash,
      });
    // A password an operator chose is not marked for a change.
    await adapter.updateUser(existing.user.id, {
      mustChangePassword: false,
      ...(input.name === undefined ? {} : { name: input.name }),
    });
    // A reset must lock out whoever knew the old password, and lifts the lock they may have put on
    // the account's code step (wrong codes in a row, index.ts TWO_STEP_LOCK).
    await adapter.deleteUserSessions(existing.user.id);
    await context.adapter.updateMany({
      model: 'twoFactor',
      where: [{ field: 'userId', value: existing.user.id }],
      update: { failedVerificationCount: 0, lockedUntil: null },
    });
    removeFirstPasswordOf(config.FIRST_PASSWORD_FILE, email);
    return 'reset';
  }
  await createAccount(adapter, email, input.name ?? '', hash);
  return 'created';
}

type InternalAdapter = Awaited<StaffAuth['$context']>['internalAdapter'];

/** Sets or clears the mark that sends an account to 'Contraseña' (migration 0009). */
export async function setMustChangePassword(userId: string, value: boolean, db: Db): Promise<void> {
  await db
    .withoutPlugins()
    .updateTable('user')
    .set({ mustChangePassword: value ? 1 : 0 })
    .where('id', '=', userId)
    .execute();
}

/** A new user with its password; throws when the e-mail is taken (the column is unique). */
async function createAccount(
  adapter: InternalAdapter,
  email: string,
  name: string,
  hash: string,
  mustChangePassword = false,
): Promise<void> {
  const user = await adapter.createUser(
    { email, name, emailVerified: true, mustChangePassword },
    { method: 'admin' },
  );
  await adapter.linkAccount({
    userId: user.id,
    providerId: 'credential',
    accountId: user.id,
    password: hash,
  });
}

export async function listStaff(auth: StaffAuth = getAuth(), db: Db = getDb()): Promise<StaffAccount[]> {
  const users = await (
    await auth.$context
  ).internalAdapter.listUsers(undefined, undefined, { field: 'email', direction: 'asc' });
  const signIns = await db
    .selectFrom('auditEvents')
    .select(['actorId', db.fn.max('at').as('at')])
    .where('action', '=', 'signin.ok')
    .groupBy('actorId')
    .execute();
  const lastSignIn = new Map(signIns.map((row) => [row.actorId, row.at]));
  return users.map((user) => ({
    id: user.id,
    email: user.email,
    name: user.name,
    createdAt: new Date(user.createdAt).toISOString(),
    lastSignInAt: lastSignIn.has(user.id) ? new Date(lastSignIn.get(user.id)!).toISOString() : null,
    twoStep: Boolean((user as { twoFactorEnabled?: unknown }).twoFactorEnabled),
  }));
}

/**
 * When no account exists, creates one for the first ADMIN_EMAILS address with a random password,
 * marked for a change, and returns it (the caller writes it to FIRST_PASSWORD_FILE); null when
 * accounts exist.
 */
export async function ensureInitialStaff(
  auth: StaffAuth = getAuth(),
  config: Config = getConfig(),
): Promise<{ email: string; password: string } | null> {
  const adapter = (await auth.$context).internalAdapter;
  if ((await adapter.countTotalUsers()) > 0) return null;
  const email = config.ADMIN_EMAILS[0]!;
  const password = randomBytes(18).toString('base64url');
  try {
    // Create only, never reset: several processes starting at once all see no account, and a reset
    // by the second would void the password the first one printed.
    // Generated: its owner is asked for a password of their own at the first sign-in.
    await createAccount(adapter, email, '', await hashPassword(password), true);
  } catch (error) {
    // The unique e-mail refused us: another process created the account first and printed its password.
    if (await adapter.findUserByEmail(email)) return null;
    throw error;
  }
  return { email, password };
}
