/**
 * A private IMAP server for the mailbox poller's tests: Debian's Dovecot (`dovecot-imapd`) started by
 * the test as its own instance — its own configuration file, a free loopback port, a temporary maildir
 * and one passwd-file user — the way tests/support/postgres.ts starts a private PostgreSQL. It never
 * touches a system Dovecot. Without the binary the tests are skipped with a loud notice; under CI that
 * is a failure (`.ci/run` installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server.ts';

const DOVECOT = process.env.DOVECOT_BIN ?? '/usr/sbin/dovecot';

export const dovecotProblem: string | null = existsSync(DOVECOT)
  ? null
  : `no se encontró Dovecot (${DOVECOT}; en Debian: apt-get install -y dovecot-imapd)`;

if (dovecotProblem) {
  const message = `Servidor IMAP privado no disponible: ${dovecotProblem}.`;
  if (process.env.CI) throw new Error(`${message} En CI las pruebas del buzón son obligatorias.`);
  console.warn(
    `\n${'!'.repeat(78)}\n!! ${message}\n!! SE OMITEN las pruebas del buzón (IMAP).\n${'!'.repeat(78)}\n`,
  );
}

export interface PrivateDovecot {
  host: string;
  port: number;
  user: string;
  password: string;
  /** `imap://user:password@127.0.0.1:PORT/INBOX`, as INBOUND_IMAP_URL takes it. */
  url: string;
  stop(): Promise<void>;
}

/** Resolves once something accepts connections on the port (Dovecot is up), within `timeoutMs`. */
async function waitForPort(
  port: number,
  child: ChildProcess,
  log: () => string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`Dovecot terminó al arrancar (código ${child.exitCode}):\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`Dovecot no respondió en ${timeoutMs} ms:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface DovecotOptions {
  /**
   * The capabilities announced after login, instead of Dovecot's own (`imap_capability`): e.g. without
   * `IDLE`, to test a server that does not offer it.
   */
  capabilities?: string;
}

export async function startPrivateDovecot(options: DovecotOptions = {}): Promise<PrivateDovecot> {
  if (dovecotProblem) throw new Error(dovecotProblem);
  const dir = mkdtempSync(join(tmpdir(), 'vertice-imap-'));
  // Dovecot drops privileges for mail access; the folder must be reachable by the mail user.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const user = 'soporte';
  const password = 'clave-del-buzon-de-prueba';
  const { uid, gid, username } = userInfo();
  // As root, mail is accessed as the unprivileged `dovecot` user; otherwise as whoever runs the tests.
  const mailUser = uid === 0 ? 'dovecot' : username;
  const mail = join(dir, 'mail');
  mkdirSync(mail, { mode: 0o777 });
  chmodSync(mail, 0o777);
  writeFileSync(join(dir, 'passwd'), `${user}:{PLAIN}${password}::::::\n`);
  const config = join(dir, 'dovecot.conf');
  writeFileSync(
    config,
    [
      `base_dir = ${join(dir, 'run')}`,
      `state_dir = ${join(dir, 'state')}`,
      `log_path = ${join(dir, 'dovecot.log')}`,
      'protocols = imap',
      'listen = 127.0.0.1',
      'ssl = no',
      'disable_plaintext_auth = no',
      'auth_mechanisms = plain login',
      `mail_location = maildir:${mail}/%u`,
      'mail_privileged_group =',
      uid === 0 ? 'default_internal_user = dovecot' : `default_internal_user = ${username}`,
      uid === 0 ? 'default_login_user = dovenull' : `default_login_user = ${username}`,
      uid === 0 ? '' : `default_internal_group = ${username}`,
      'first_valid_uid = 0',
      `passdb {\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%u ${join(dir, 'passwd')}\n}`,
      `userdb {\n  driver = static\n  args = uid=${mailUser} gid=${uid === 0 ? 'dovecot' : gid} home=${mail}/%u\n}`,
      `service imap-login {\n  chroot =\n  inet_listener imap {\n    address = 127.0.0.1\n    port = ${port}\n  }\n  inet_listener imaps {\n    port = 0\n  }\n}`,
      'service anvil {\n  chroot =\n}',
      'namespace inbox {\n  inbox = yes\n  separator = /\n}',
      options.capabilities ? `protocol imap {\n  imap_capability = ${options.capabilities}\n}` : '',
      '',
    ].join('\n'),
  );
  let output = '';
  const child = spawn(DOVECOT, ['-F', '-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = () => {
    try {
      return `${output}\n${readFileSync(join(dir, 'dovecot.log'), 'utf8')}`;
    } catch {
      return output;
    }
  };
  try {
    await waitForPort(port, child, log);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    url: `imap://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/INBOX`,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
