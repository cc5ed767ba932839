import { FILES_HINT } from '../../domain/attachments';
import { ROUTES } from '../../routes';

/**
 * Body of the page a form post over its size limit gets without JavaScript (status 413): what
 * happened, what to do, and the way back to the form it came from (`back`), else home.
 */
export default function TooLarge({ back }: { back?: string }) {
  return (
    <section className="mx-auto flex max-w-3xl flex-col items-center px-4 py-20 text-center sm:px-6 sm:py-24">
      <p className="text-sm font-semibold tracking-wider text-accent-700 uppercase">Error 413</p>
      <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-brand-900 sm:text-5xl">
        Lo que enviaste es demasiado grande
      </h1>
      <p className="mt-4 max-w-xl text-lg text-muted">
        No recibimos tu envío: supera el tamaño que acepta este formulario, casi siempre por los archivos
        adjuntos. No se guardó nada.
      </p>
      <div className="mt-6 max-w-xl rounded-card border border-line bg-surface p-5 text-left">
        <h2 className="font-semibold text-brand-900">Qué puedes hacer</h2>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-muted">
          <li>Vuelve al formulario: el botón «Atrás» de tu navegador suele conservar lo que escribiste.</li>
          <li>Elige archivos más pequeños o menos archivos. {FILES_HINT}</li>
          <li>Si un archivo no cabe, envía el formulario sin él y compártelo cuando te respondamos.</li>
        </ul>
      </div>
      <a
        href={back ?? ROUTES.home}
        className="mt-8 rounded-button bg-brand-900 px-6 py-3 font-semibold text-white transition-colors hover:bg-brand-700"
      >
        {back ? 'Volver al formulario' : 'Volver al inicio'}
      </a>
    </section>
  );
}
