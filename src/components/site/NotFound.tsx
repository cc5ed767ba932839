import { ROUTES } from '../../routes';

const SUGGESTIONS = [
  { href: ROUTES.products, title: 'Productos', text: 'AdmCloud, Restaurant.pe y Tiendao' },
  { href: ROUTES.services, title: 'Servicios', text: 'Implementación, desarrollos y entrenamientos' },
  { href: ROUTES.blog, title: 'Blog', text: 'Guías de ERP y facturación electrónica' },
  { href: ROUTES.contact, title: 'Contacto', text: 'Escríbenos y te respondemos pronto' },
];

/** Body of the site's 404 page: what happened, the way home, and the pages people usually want. */
export default function NotFound() {
  return (
    <section className="mx-auto flex max-w-4xl flex-col items-center px-4 py-20 text-center sm:px-6 sm:py-24">
      <svg viewBox="0 0 240 120" className="h-28 w-auto" aria-hidden="true" focusable="false">
        <path d="M20 100h200" stroke="#e2e8f0" strokeWidth="4" strokeLinecap="round" />
        <path
          d="M40 30 76 92 112 30"
          fill="none"
          stroke="#14b8a6"
          strokeWidth="14"
          strokeLinecap="round"
          strokeLinejoin="round"
          opacity=".9"
        />
        <path
          d="M128 30 164 92 200 30"
          fill="none"
          stroke="#94a3b8"
          strokeWidth="4"
          strokeLinecap="round"
          strokeLinejoin="round"
          strokeDasharray="9 9"
        />
        <circle cx="76" cy="92" r="10" fill="#f59e0b" />
        <circle cx="164" cy="92" r="10" fill="#fff" stroke="#f59e0b" strokeWidth="3" strokeDasharray="5 4" />
      </svg>
      <p className="mt-6 text-sm font-semibold tracking-wider text-accent-700 uppercase">Error 404</p>
      <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-brand-900 sm:text-5xl">
        Página no encontrada
      </h1>
      <p className="mt-4 max-w-xl text-lg text-muted">
        La dirección que buscas no existe o cambió. Revisa que esté bien escrita, o sigue por una de estas
        secciones.
      </p>
      <a
        href={ROUTES.home}
        className="mt-8 rounded-button bg-brand-900 px-6 py-3 font-semibold text-white transition-colors hover:bg-brand-700"
      >
        Volver al inicio
      </a>
      <ul className="mt-14 grid w-full gap-4 text-left sm:grid-cols-2">
        {SUGGESTIONS.map((item) => (
          <li key={item.href}>
            <a
              href={item.href}
              className="flex h-full items-center justify-between gap-4 rounded-card border border-line bg-white p-5 transition-colors hover:border-accent-500 hover:bg-surface"
            >
              <span>
                <span className="block font-semibold text-brand-900">{item.title}</span>
                <span className="mt-0.5 block text-sm text-muted">{item.text}</span>
              </span>
              <span aria-hidden="true" className="text-xl text-accent-600">
                →
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
