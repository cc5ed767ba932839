/**
 * The one end-to-end fixture: the production build served as `npm start` serves it, the system
 * Chromium and, when asked, a real SMTP peer that receives the server's mails. Calling
 * {@link useSite} at the top of a test file starts them before the file's first test (and before the
 * file's own `beforeAll` hooks, which may use them) and stops them after its last one. It also hands the
 * staff files what each of them used to set up on its own: the server's database (`db`) and the first
 * staff account's e-mail and password (`staff`).
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { openDatabase, type Db } from '../../src/server/db/index.ts';
import { connectBrowser, watchConsole } from './browser.ts';
import {
  firstStaffEmail,
  firstStaffPassword,
  outputFrom,
  prepareFirstStaff,
  startServer,
  type RunningServer,
  type SharedServer,
} from './server.ts';
import { startSmtpPeer, type SmtpPeer } from './smtp.ts';
import { silenceWhatsNew } from './whatsnew.ts';

type Env = Record<string, string | undefined>;

export interface SiteOptions {
  /** Server environment on top of {@link startServer}'s; a function is called once the SMTP peer is up. */
  env?: Env | (() => Env);
  /** Launch Chromium (default true); plain-HTTP suites turn it off. */
  browser?: boolean;
  /** Start an SMTP peer and point `SMTP_URL` at it. */
  smtp?: boolean;
  /** Leave the first staff account with its generated password (default: reset to a known one, see prepareFirstStaff). */
  keepGeneratedPassword?: boolean;
  /**
   * Use the run's shared server instead of one of the file's own: for files that only read the public
   * pages, with the default settings, and change nothing on the server (no forms, no staff, no mail).
   * It is started once by the e2e global setup and stays up for the other files: it cannot be stopped,
   * and its output is not the file's to read.
   */
  shared?: boolean;
}

export interface Site {
  server: RunningServer;
  browser: Browser;
  smtp: SmtpPeer;
  /**
   * The server's database, opened on first use in a test or hook and closed after the file's last test
   * (before the server stops): for seeding records and reading what the pages wrote.
   */
  db: Db;
  /**
   * The first staff account the server made on its first start: its e-mail, as the start printed it, and
   * the password useSite gave it (see prepareFirstStaff). Read in a test or hook; throws when the server
   * made no such account.
   */
  staff: { readonly email: string; readonly password: string };
  /** A new browser context whose visitor has already seen every announcement, so the toast stays out of the way. */
  quietContext(options: BrowserContextOptions): Promise<BrowserContext>;
  /** Runs `run` on a page of a new context, fails on any console error, and closes the context. */
  withPage(options: BrowserContextOptions, run: (page: Page) => Promise<void>): Promise<void>;
}

/**
 * Test files declare `const { server, browser } = useSite()` at module level, before anything is
 * started: each member is a handle that forwards to the real object once `beforeAll` has made it, so
 * tests and hooks use it as the object itself. Touching one outside a test or hook throws.
 */
function handle<T extends object>(name: string, current: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_, key) {
      const target = current();
      if (!target)
        throw new Error(
          `${name} no está disponible: úsalo dentro de una prueba o de un hook, y pídelo a useSite().`,
        );
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The run's shared server, as {@link RunningServer}: what a reader of public pages needs, nothing it may not do. */
function sharedServer(shared: SharedServer | undefined): RunningServer {
  if (!shared)
    throw new Error('No hay servidor compartido: esta prueba corre fuera del proyecto e2e de Vitest.');
  const refuse = (what: string) => () => {
    throw new Error(`El servidor compartido no se puede ${what} desde una prueba.`);
  };
  return {
    ...shared,
    output: () => '',
    stop: refuse('detener'),
    kill: refuse('detener'),
    get process(): never {
      return refuse('controlar')();
    },
  };
}

export function useSite(options: SiteOptions = {}): Site {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let smtp: SmtpPeer | undefined;
  let db: Db | undefined;

  // The pages the browser could not load whole (a connection cut mid-page, an error page), as it saw them.
  const documentTrouble: string[] = [];
  const watchDocuments = (connected: Browser): Browser => {
    const newContext = connected.newContext.bind(connected);
    connected.newContext = async (contextOptions) => {
      const context = await newContext(contextOptions);
      context.on('requestfailed', (request) => {
        if (request.resourceType() === 'document')
          documentTrouble.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText ?? ''}`);
      });
      context.on('response', (response) => {
        if (response.request().resourceType() === 'document' && response.status() >= 500)
          documentTrouble.push(`${response.request().method()} ${response.url()}: ${response.status()}`);
      });
      return context;
    };
    return connected;
  };

  beforeAll(async () => {
    if (options.shared) {
      if (options.env || options.smtp || options.keepGeneratedPassword) {
        throw new Error(
          'Un servidor compartido usa la configuración por omisión: sin env, smtp ni keepGeneratedPassword.',
        );
      }
      server = sharedServer(inject('sharedServer'));
      if (options.browser !== false)
        browser = watchDocuments(await connectBrowser(inject('browserWsEndpoint')));
      return;
    }
    if (options.smtp) smtp = await startSmtpPeer();
    const env = {
      ...(typeof options.env === 'function' ? options.env() : options.env),
      ...(smtp ? { SMTP_URL: smtp.url } : {}),
    };
    // Started together; whichever starts is kept even if the other fails, so afterAll can stop it.
    const [started, launched] = await Promise.allSettled([
      startServer({ env, template: inject('sqliteTemplate') }),
      options.browser === false ? Promise.resolve(undefined) : connectBrowser(inject('browserWsEndpoint')),
    ]);
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'fulfilled') browser = launched.value && watchDocuments(launched.value);
    for (const outcome of [started, launched]) if (outcome.status === 'rejected') throw outcome.reason;
    if (!options.keepGeneratedPassword) await prepareFirstStaff(server!);
  });

  // A test that fails prints what the file's own server wrote while it ran (warnings, errors) and the
  // pages its browser could not load whole: in a CI log, the only trace of either side of a failure.
  beforeEach(({ onTestFailed }) => {
    documentTrouble.length = 0;
    // Its last 100 lines: at the default level, every request is one.
    const written = server && !options.shared ? outputFrom(server, 100) : undefined;
    onTestFailed(() => {
      const printed = written?.();
      if (printed) console.error(`El servidor escribió durante la prueba (últimas líneas):\n${printed}`);
      if (documentTrouble.length > 0)
        console.error(`Páginas que el navegador no cargó enteras:\n${documentTrouble.join('\n')}`);
    });
  });

  afterAll(async () => {
    await db?.destroy();
    await browser?.close();
    if (!options.shared) await server?.stop();
    await smtp?.stop();
  });

  const site: Site = {
    server: handle('El servidor', () => server),
    browser: handle('El navegador', () => browser),
    smtp: handle('El servidor SMTP de prueba', () => smtp),
    db: handle('La base de datos del servidor', () => {
      if (!server) return undefined;
      if (options.shared)
        throw new Error('La base de datos del servidor compartido no se abre desde una prueba.');
      return (db ??= openDatabase(server.env.DATABASE_URL!).db);
    }),
    staff: {
      get email() {
        const email = firstStaffEmail(site.server);
        if (!email) throw new Error('El servidor no creó la cuenta de personal inicial.');
        return email;
      },
      get password() {
        const password = firstStaffPassword(site.server);
        if (!password) throw new Error('El servidor no creó la cuenta de personal inicial.');
        return password;
      },
    },
    async quietContext(contextOptions) {
      const context = await site.browser.newContext(contextOptions);
      await silenceWhatsNew(context);
      return context;
    },
    async withPage(contextOptions, run) {
      const context = await site.browser.newContext(contextOptions);
      const page = await context.newPage();
      const consoleWatch = watchConsole(page);
      try {
        await run(page);
        consoleWatch.assertNone();
      } finally {
        await context.close();
      }
    },
  };
  return site;
}
