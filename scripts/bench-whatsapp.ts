/**
 * `npm run bench:whatsapp` (issue 37): the production server (`node scripts/start.ts`, as `npm start`)
 * on a fresh SQLite file with the WhatsApp channel on, its `WHATSAPP_API_URL` pointing at the loopback
 * stand-in of Meta's Graph API (tests/support/meta-standin.ts). Never the real service.
 *
 * 1. Burst: 1,000 inbound text messages from 200 numbers, each in a POST of its own to `/api/whatsapp`
 *    signed as Meta signs (`X-Hub-Signature-256` over the bytes sent, non-ASCII as `\uXXXX`), paced over
 *    one minute, 8 in flight at most; then 100 of them posted again (Meta delivers at least once). Every
 *    wamid must be stored once in `inbound_messages`: none lost, none twice. The webhook's answer time:
 *    p50, p95 (target < 100 ms) and the slowest.
 * 2. Static page: the req/s of `/productos` (served from memory) for 10 s before the burst and for 10 s
 *    in its middle, from a process of its own (autocannon). Target: ≥ 0.8× during the burst.
 * 3. Replies: a staff member signed in posts 'Responder al cliente' on 20 of the incidents the burst
 *    opened, one after another, as the incident page's form posts it; the time from the click (the POST)
 *    until the stand-in has received the text. Target: each within 2 s while the stand-in answers.
 *
 * Needs the webhook `/api/whatsapp` and the WhatsApp channel registered for the desk's notices (the
 * inbound half of issue 37); without it the script says so and stops after its check. Builds first
 * unless `--no-build`. `BENCH_MESSAGES=200` sets another count and `BENCH_SECONDS=15` another pace (a
 * quick check). Everything lives in temporary folders, removed at the end.
 */
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { percentile, staticRate } from './bench/measure.ts';
import { openDatabase } from '../src/server/db/index.ts';
import { startMetaStandin, textMessage, webhookBody, postWebhook } from '../tests/support/meta-standin.ts';
import { createStaffAccount, ROOT, startServer, type RunningServer } from '../tests/support/server.ts';

const MESSAGES = Math.max(1, Number(process.env.BENCH_MESSAGES ?? 1000));
const BURST_SECONDS = Math.max(1, Number(process.env.BENCH_SECONDS ?? 60));
const NUMBERS = Math.max(1, Math.round(MESSAGES / 5));
const DUPLICATES = Math.min(100, MESSAGES);
const IN_FLIGHT = 8;
const STATIC_SECONDS = 10;
const REPLIES = Math.min(20, NUMBERS);
const TARGET_P95_MS = 100;
const TARGET_RATIO = 0.8;
const TARGET_REPLY_MS = 2000;
const BENCH_STAFF = 'banco@vertice.example';
const BENCH_PASSWORD = 'caoba-tamarindo-mangle-77';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The customer's number of message `index`: 200 numbers, five messages each. */
const numberOf = (index: number) => `1809${String(5_000_000 + (index % NUMBERS)).padStart(7, '0')}`;

async function signIn(server: RunningServer): Promise<string> {
  await createStaffAccount(server, { email: BENCH_STAFF, password: BENCH_PASSWORD }, BENCH_STAFF);
  const response = await fetch(`${server.url}/admin-login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: BENCH_STAFF, password: BENCH_PASSWORD }),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  if (response.status !== 303 || !cookie) throw new Error(`No se pudo iniciar sesión (${response.status}).`);
  return cookie;
}

async function main(): Promise<void> {
  if (!process.argv.includes('--no-build')) {
    console.log('Compilando (npm run build)…');
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  const standin = await startMetaStandin();
  let server: RunningServer | undefined;
  try {
    server = await startServer({
      env: {
        LOG_LEVEL: 'warn',
        // The staff member who replies: on the list, so that the sign-in takes them.
        ADMIN_EMAILS: BENCH_STAFF,
        WHATSAPP_APP_SECRET: standin.appSecret,
        WHATSAPP_PHONE_NUMBER_ID: standin.phoneNumberId,
        WHATSAPP_ACCESS_TOKEN: standin.accessToken,
        WHATSAPP_VERIFY_TOKEN: standin.verifyToken,
        WHATSAPP_API_URL: standin.apiUrl,
      },
    });
    const webhook = `${server.url}/api/whatsapp`;

    // The webhook must be there: Meta's subscription check answers the challenge.
    const check = await fetch(
      `${webhook}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(standin.verifyToken)}&hub.challenge=1158201444`,
    );
    const challenge = await check.text();
    if (check.status !== 200 || challenge !== '1158201444') {
      console.log(
        `El webhook /api/whatsapp no está (respondió ${check.status}): hace falta la parte de entrada del canal (issue 37). ` +
          'Nada que medir; el script se ejecutará después de unirlas.',
      );
      process.exitCode = 2;
      return;
    }

    // 2, before: the static page alone.
    const staticUrl = `${server.url}/productos`;
    const alone = await staticRate(staticUrl, STATIC_SECONDS);

    // 1. The burst, paced over BURST_SECONDS, at most IN_FLIGHT posts at once.
    const wamids: string[] = [];
    const bodies = Array.from({ length: MESSAGES }, (_, index) => {
      const part = textMessage(
        numberOf(index),
        `Cliente ${index % NUMBERS}`,
        `Mensaje ${index}: la caja no abre, ¿qué hago?`,
      );
      wamids.push(String(part.message!.id));
      return webhookBody([part], { phoneNumberId: standin.phoneNumberId });
    });
    const times: number[] = [];
    const failures: string[] = [];
    const gapMs = (BURST_SECONDS * 1000) / MESSAGES;
    const started = performance.now();
    let next = 0;
    const post = async (body: unknown) => {
      const sent = performance.now();
      const response = await postWebhook(webhook, body, { appSecret: standin.appSecret });
      await response.arrayBuffer();
      times.push(performance.now() - sent);
      if (response.status !== 200) failures.push(String(response.status));
    };
    const lane = async () => {
      for (;;) {
        const index = next++;
        if (index >= MESSAGES) return;
        const due = started + index * gapMs;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        await post(bodies[index]);
      }
    };
    // The static page measured again in the middle of the burst.
    const during = (async () => {
      await sleep(Math.max(0, (BURST_SECONDS * 1000 - STATIC_SECONDS * 1000) / 2));
      return staticRate(staticUrl, Math.min(STATIC_SECONDS, BURST_SECONDS));
    })();
    await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
    const burstSeconds = (performance.now() - started) / 1000;
    const beside = await during;
    // Meta delivers at least once: some come again.
    for (let index = 0; index < DUPLICATES; index += 1) await post(bodies[index]);

    // What was stored: each wamid once (the webhook may store after its answer; wait a little).
    const { db } = openDatabase(server.env.DATABASE_URL!);
    let stored: Array<{ dedupKey: string; count: number }> = [];
    try {
      for (let waited = 0; waited < 30_000; waited += 250) {
        stored = (await db
          .selectFrom('inboundMessages')
          .select(['dedupKey', (eb) => eb.fn.countAll<number>().as('count')])
          .where('channel', '=', 'whatsapp')
          .groupBy('dedupKey')
          .execute()) as Array<{ dedupKey: string; count: number }>;
        if (stored.length >= MESSAGES) break;
        await sleep(250);
      }
      const keys = new Set(stored.map((row) => row.dedupKey));
      const lost = wamids.filter((wamid) => !keys.has(`wamid:${wamid}`)).length;
      const twice = stored.filter((row) => Number(row.count) > 1).length;

      // 3. Replies: the staff's click to the stand-in's receipt.
      const cookie = await signIn(server);
      const incidents = await db
        .selectFrom('incidents')
        .select(['numeroIncidencia', 'channelAddress'])
        .where('channel', '=', 'whatsapp')
        .orderBy('id')
        .limit(REPLIES)
        .execute();
      const replyTimes: number[] = [];
      for (const [index, incident] of incidents.entries()) {
        const text = `Respuesta de prueba ${index}: reinicia la caja y me cuentas.`;
        const form = new FormData();
        form.set('numero', incident.numeroIncidencia);
        form.set('texto', text);
        form.set('accion', 'responder');
        const clicked = performance.now();
        const response = await fetch(
          `${server.url}/admin/incidencias/${incident.numeroIncidencia}?_action=incidents.addEntry`,
          { method: 'POST', redirect: 'manual', headers: { cookie, origin: server.url }, body: form },
        );
        await response.arrayBuffer();
        if (response.status !== 303 && response.status !== 302)
          throw new Error(`La respuesta ${index} respondió ${response.status}`);
        let took = Infinity;
        for (const deadline = clicked + 10_000; performance.now() < deadline; await sleep(10)) {
          if (standin.sentMessages().some((message) => message.text?.body?.startsWith(text))) {
            took = performance.now() - clicked;
            break;
          }
        }
        replyTimes.push(took);
      }

      const p95 = percentile(times, 0.95);
      const ratio = beside / alone;
      const slowestReply = Math.max(...replyTimes);
      const ok = (pass: boolean) => (pass ? 'OK' : 'NO');
      console.log(
        `\nbench:whatsapp — ${MESSAGES} mensajes de ${NUMBERS} números en ${burstSeconds.toFixed(1)} s; carga ${loadavg()[0]!.toFixed(2)}`,
      );
      console.log(
        `  guardados ${keys.size} de ${MESSAGES}: perdidos ${lost}, dos veces ${twice} (con ${DUPLICATES} reenvíos)  ${ok(lost === 0 && twice === 0)}`,
      );
      console.log(`  respuestas del webhook no 200: ${failures.length}  ${ok(failures.length === 0)}`);
      console.log(
        `  respuesta del webhook: p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, máx ${Math.max(...times).toFixed(1)} ms  objetivo p95 < ${TARGET_P95_MS} ms  ${ok(p95 < TARGET_P95_MS)}`,
      );
      console.log(
        `  página estática: sola ${alone.toFixed(0)} req/s, durante la ráfaga ${beside.toFixed(0)} req/s: ${ratio.toFixed(2)}×  objetivo ≥ ${TARGET_RATIO}×  ${ok(ratio >= TARGET_RATIO)}`,
      );
      console.log(
        `  respuestas del personal hasta Meta: p50 ${percentile(replyTimes, 0.5).toFixed(0)} ms, máx ${slowestReply.toFixed(0)} ms (${replyTimes.length})  objetivo ≤ ${TARGET_REPLY_MS} ms  ${ok(slowestReply <= TARGET_REPLY_MS)}`,
      );
      const passed =
        lost === 0 &&
        twice === 0 &&
        failures.length === 0 &&
        p95 < TARGET_P95_MS &&
        ratio >= TARGET_RATIO &&
        slowestReply <= TARGET_REPLY_MS;
      if (!passed) process.exitCode = 1;
    } finally {
      await db.destroy();
    }
  } finally {
    await server?.stop();
    await standin.close();
  }
}

await main();
