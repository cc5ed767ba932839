/**
 * `npm run admin -- create --email E [--name N]`: creates or resets a staff account (E must be on
 * ADMIN_EMAILS; the password follows the settings page's rules; a reset ends the account's sessions and
 * clears the mark of a generated password). The password is asked twice without echo in a terminal,
 * read as one line from standard input otherwise, or taken from `--password` (a warning: it shows in
 * the process list and the shell's history).
 * `npm run admin -- list`: lists the staff accounts with their creation, their last sign-in (Santo
 * Domingo time, said above the list) and whether two-step verification is on.
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createOrResetStaff, listStaff, StaffAccountError } from '../src/server/auth/index.ts';
import { ConfigError } from '../src/server/config.ts';
import { closeDb, getDb, migrateToLatest } from '../src/server/db/index.ts';
import { formatStaffDateTime, inSantoDomingoTime } from '../src/domain/dates.ts';

const USAGE = 'Uso: npm run admin -- create --email CORREO [--name NOMBRE]\n     npm run admin -- list';

/** One line typed in a terminal, not echoed. */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const input = process.stdin;
    process.stdout.write(question);
    input.setRawMode(true);
    input.resume();
    let typed = '';
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          input.setRawMode(false);
          input.pause();
          input.off('data', onData);
          process.stdout.write('\n');
          resolve(typed);
          return;
        }
        if (char === '\u0003') process.exit(130); // Ctrl-C
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    input.on('data', onData);
  });
}

/** The first line of standard input (a pipe or a file). */
async function readLine(): Promise<string> {
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return '';
}

async function passwordFromOperator(given: string | undefined): Promise<string> {
  if (given !== undefined) {
    console.error(
      'Aviso: --password deja la contraseña en la lista de procesos y en el historial del shell. Omítalo para escribirla sin eco o pasarla por la entrada estándar.',
    );
    return given;
  }
  if (!process.stdin.isTTY) return readLine();
  const first = await askHidden('Contraseña: ');
  const second = await askHidden('Repita la contraseña: ');
  if (first !== second) throw new StaffAccountError('Las contraseñas no coinciden.');
  return first;
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
  });
  const [command] = positionals;
  if (command !== 'create' && command !== 'list') {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  await migrateToLatest(getDb());
  if (command === 'list') {
    const accounts = await listStaff();
    if (!accounts.length) console.log('No hay cuentas de personal.');
    // Every time as the staff page shows it, Santo Domingo time, said once above the list (issue 39):
    // the creation date was UTC in ISO beside a last sign-in in local time.
    else console.log(inSantoDomingoTime('Cuentas de personal, fechas en dd/mm/aaaa hh:mm') + ':');
    for (const account of accounts) {
      const lastSignIn = account.lastSignInAt ? formatStaffDateTime(account.lastSignInAt) : 'nunca';
      console.log(
        `${account.email}\t${account.name || '—'}\tcreada ${formatStaffDateTime(account.createdAt)}\túltimo inicio de sesión: ${lastSignIn}\t${account.twoStep ? 'dos pasos: sí' : 'dos pasos: no'}`,
      );
    }
    return;
  }
  if (!values.email) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const password = await passwordFromOperator(values.password);
  const result = await createOrResetStaff({ email: values.email, password, name: values.name });
  console.log(
    result === 'created'
      ? `Cuenta creada: ${values.email.toLowerCase()}`
      : `Contraseña restablecida (sesiones cerradas): ${values.email.toLowerCase()}`,
  );
}

main()
  .catch((error: unknown) => {
    if (error instanceof StaffAccountError || error instanceof ConfigError) console.error(error.message);
    else console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  })
  .finally(() => closeDb());
