/**
 * `npm run data -- export [DIR]`: incidents (with history, conversation, assignments, follow-up tokens
 * and the mails sent about them), clients (with timeline and meetings), contact messages (with their
 * handled state) and inbound messages (with their outcome and, while kept, their original) as JSON,
 * and a summary as CSV, into DIR (default data/export-YYYYMMDD-HHMMSS/). Staff accounts and the mail
 * outbox are not exported (src/server/data/export.ts).
 * `npm run data -- import FILE`: imports a JSON file (our export, or the original site's document
 * exports); idempotent, all or nothing, with a progress bar, a summary and the reason of each record
 * refused (src/server/data/import.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exportCsv, exportData } from '../src/server/data/index.ts';
import { importData, type ImportRefusal, type ImportSummary } from '../src/server/data/index.ts';
import { closeDb, getDb } from '../src/server/db/index.ts';
import { prepareDatabase } from '../src/server/startup.ts';

const [command, argument] = process.argv.slice(2);

function progressBar(done: number, total: number): void {
  if (!process.stderr.isTTY && done !== total) return;
  const width = 30;
  const filled = total ? Math.round((done / total) * width) : width;
  process.stderr.write(
    `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`,
  );
}

const LABELS = {
  incidents: 'Incidencias',
  clients: 'Clientes',
  contactMessages: 'Mensajes de contacto',
  inboundMessages: 'Correos entrantes',
  savedReplies: 'Respuestas guardadas',
  articles: 'Artículos',
  announcements: 'Anuncios',
  clientLogos: 'Logos de clientes',
};

function printSummary(summary: ImportSummary, refused: ImportRefusal[]): void {
  console.log('Tipo                  importados  omitidos  inválidos');
  for (const [kind, counts] of Object.entries(summary) as Array<
    [keyof ImportSummary, ImportSummary[keyof ImportSummary]]
  >) {
    console.log(
      `${LABELS[kind].padEnd(22)}${String(counts.imported).padStart(10)}${String(counts.skipped).padStart(10)}${String(counts.invalid).padStart(11)}`,
    );
  }
  if (refused.length) console.log('\nNo se importaron (inválidos):');
  for (const refusal of refused)
    console.log(`- ${LABELS[refusal.kind]}: ${refusal.record}: ${refusal.reason}`);
}

async function main(): Promise<void> {
  await prepareDatabase();
  if (command === 'export') {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    const dir = resolve(argument ?? join('data', `export-${stamp}`));
    mkdirSync(dir, { recursive: true });
    const data = await exportData(getDb());
    writeFileSync(join(dir, 'export.json'), `${JSON.stringify(data, null, 2)}\n`);
    for (const [name, csv] of Object.entries(exportCsv(data))) writeFileSync(join(dir, `${name}.csv`), csv);
    console.log(
      `Exportados ${data.incidents.length} incidencias, ${data.clients.length} clientes y ${data.contactMessages.length} mensajes en ${dir}`,
    );
    return;
  }
  if (command === 'import' && argument) {
    let input: unknown;
    try {
      input = JSON.parse(readFileSync(argument, 'utf8'));
    } catch (error) {
      throw new Error(
        `No se pudo leer ${argument} como JSON: ${error instanceof Error ? error.message : error}`,
        { cause: error },
      );
    }
    const refused: ImportRefusal[] = [];
    const summary = await importData(getDb(), input, {
      onProgress: progressBar,
      onRefused: (refusal) => refused.push(refusal),
    });
    printSummary(summary, refused);
    return;
  }
  console.error('Uso: npm run data -- export [CARPETA] | npm run data -- import ARCHIVO.json');
  process.exitCode = 2;
}

main()
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    if (command === 'import') console.error('No se importó nada.');
    process.exitCode = 1;
  })
  .finally(() => closeDb());
