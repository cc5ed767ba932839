/**
 * `npm run admin -- create --email E --password P [--name N]`: creates or resets a staff account
 * (E must be on ADMIN_EMAILS; P at least 12 characters; a reset ends the account's sessions).
 * `npm run admin -- list`: lists the staff accounts (and whether each has two-step verification on).
 */
import { parseArgs } from 'node:util';
import { createOrResetStaff, listStaff, StaffAccountError } from '../src/server/auth/accounts.ts';
import { ConfigError } from '../src/server/config.ts';
import { closeDb, getDb, migrateToLatest } from '../src/server/db/index.ts';

const USAGE = 'Uso: npm run admin -- create --email CORREO --password CLAVE [--name NOMBRE]\n     npm run admin -- list';

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
    for (const account of accounts)
      console.log(`${account.email}\t${account.name || '—'}\tcreada ${account.createdAt}\t${account.twoStep ? 'dos pasos: sí' : 'dos pasos: no'}`);
    return;
  }
  if (!values.email || !values.password) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const result = await createOrResetStaff({ email: values.email, password: values.password, name: values.name });
  console.log(result === 'created' ? `Cuenta creada: ${values.email.toLowerCase()}` : `Contraseña restablecida (sesiones cerradas): ${values.email.toLowerCase()}`);
}

main()
  .catch((error: unknown) => {
    if (error instanceof StaffAccountError || error instanceof ConfigError) console.error(error.message);
    else console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  })
  .finally(() => closeDb());
