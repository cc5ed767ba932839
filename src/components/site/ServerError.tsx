import { ROUTES } from '../../routes';
import { EmailAddress } from '../ui/KeepWhole';

/**
 * Body of the site's 500 page: an apology and the ways forward, in Spanish. Never the error itself:
 * what went wrong is in the server's log, not in front of the visitor.
 */
export default function ServerError({ phone, email }: { phone: string; email: string }) {
  return (
    <section className="mx-auto flex max-w-3xl flex-col items-center px-4 py-20 text-center sm:px-6 sm:py-24">
      <p className="text-sm font-semibold tracking-wider text-accent-700 uppercase">Error 500</p>
      <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-brand-900 sm:text-5xl">
        Algo salió mal
      </h1>
      <p className="mt-4 max-w-xl text-lg text-muted">
        Tuvimos un problema al preparar esta página. Ya quedó registrado; inténtalo de nuevo en unos minutos.
      </p>
      <p className="mt-2 max-w-xl text-muted">
        Si es urgente, llámanos al{' '}
        <a
          href={`tel:${phone.replace(/[^\d+]/g, '')}`}
          className="font-medium text-brand-700 hover:underline"
        >
          {phone}
        </a>{' '}
        o escríbenos a{' '}
        <a href={`mailto:${email}`} className="font-medium text-brand-700 hover:underline">
          <EmailAddress email={email} />
        </a>
        .
      </p>
      <a
        href={ROUTES.home}
        className="mt-8 rounded-button bg-brand-900 px-6 py-3 font-semibold text-white transition-colors hover:bg-brand-700"
      >
        Volver al inicio
      </a>
    </section>
  );
}
