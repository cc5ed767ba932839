/**
 * The face of src/server/auth/: what other modules may use of it (docs/decisions/0020). Its work is
 * in auth.ts (Better Auth's set-up and the session), and each job's file.
 */
export * from './auth.ts';
export { StaffAccountError, createOrResetStaff, ensureInitialStaff, listStaff } from './accounts.ts';
export { writeFirstPassword } from './first-password.ts';
export {
  IDLE_MESSAGE,
  requireStaffApi,
  requireStaffPage,
  signedInStaff,
  staffActor,
  staffOrRefusal,
  type GuardContext,
} from './guard.ts';
export { signInStaff, signOutStaff, verifyStaffCode } from './login.ts';
export { staffEmails, staffIds } from './staff-directory.ts';
export {
  PASSWORD_FIELDS,
  PASSWORD_MESSAGES,
  changeStaffPassword,
  endOtherStaffSessions,
  endStaffSession,
  listStaffSessions,
  renameStaff,
  type PasswordErrors,
  type PasswordField,
} from './settings.ts';
export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './strength.ts';
export {
  TWO_STEP_MESSAGES,
  confirmTwoStep,
  disableTwoStep,
  pendingEnrolment,
  recoveryCodesFile,
  sessionTokenOf,
  startTwoStep,
  type Enrolment,
  type TwoStepErrors,
} from './two-step.ts';
