/**
 * Content the benchmarks publish before measuring: a fresh database has the imported blog articles
 * but no help article (bench:web, bench:load).
 */
import { createArticle, publishArticle } from '../../src/server/content/index.ts';
import { openDatabase } from '../../src/server/db/index.ts';

/** A help article as staff would write it, published before the run (a fresh database has none). */
export const SAMPLE_HELP = {
  kind: 'ayuda' as const,
  slug: 'emitir-factura-electronica',
  title: 'Cómo emitir una factura electrónica (e-CF) en AdmCloud',
  excerpt:
    'Los pasos para emitir, firmar y enviar a la DGII un comprobante fiscal electrónico desde AdmCloud.',
  body: [
    '## Antes de empezar',
    '',
    'Necesitas tu **certificado digital** cargado en *Configuración → Facturación electrónica* y la secuencia de e-NCF autorizada por la DGII.',
    '',
    '## Emitir la factura',
    '',
    '1. Abre *Ventas → Facturas* y pulsa **Nueva factura**.',
    '2. Elige el cliente: su RNC o cédula se completa solo.',
    '3. Agrega los productos o servicios y revisa el ITBIS de cada línea.',
    '4. Pulsa **Emitir**: AdmCloud firma el e-CF y lo envía a la DGII.',
    '',
    '## Si la DGII lo rechaza',
    '',
    '| Mensaje | Qué hacer |',
    '|---|---|',
    '| RNC inválido | Corrige el RNC del cliente y emite de nuevo. |',
    '| Secuencia vencida | Solicita una nueva secuencia en la Oficina Virtual. |',
    '',
    '¿Sigue sin funcionar? Abre una incidencia desde [Soporte](/soporte) y la revisamos contigo.',
  ].join('\n'),
  coverImage: null,
  coverAlt: '',
  author: 'Equipo de Soporte',
  tags: ['Facturación', 'AdmCloud'],
  seoTitle: '',
  seoDescription: '',
};

/**
 * Publishes {@link SAMPLE_HELP} through the server's database file and waits until the server serves
 * it from memory (its slow check notices another connection's change within 30 s).
 */
export async function publishSampleHelp(url: string, databaseUrl: string): Promise<void> {
  const { db } = openDatabase(databaseUrl);
  try {
    const article = await createArticle(db, SAMPLE_HELP, null);
    await publishArticle(db, article.id, article.version, null);
  } finally {
    await db.destroy();
  }
  const path = `/ayuda/${SAMPLE_HELP.slug}`;
  const end = Date.now() + 60_000;
  while (!(await fetch(`${url}${path}`)).headers.get('etag')) {
    if (Date.now() > end) throw new Error(`${path} no llegó a la memoria del servidor en 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
