import {
  quoteTiendao,
  TIENDAO_PRICING,
  tiendaoWhatsappMessage,
  type TiendaoQuote,
} from '../../lib/tiendao-pricing';
import { whatsappLink } from '../../lib/whatsapp';

export interface TiendaoCalculatorProps {
  /** WhatsApp number (digits with country code) that receives the configuration. */
  whatsappNumber: string;
}

const money = (amount: number) => `$${amount}`;

/**
 * The investment calculator. Both states are known in advance, so both summaries and both WhatsApp
 * links are rendered and CSS (`:has(:checked)`) shows the one that matches the checkbox: it updates
 * at once, with no JavaScript at all.
 */
export default function TiendaoCalculator({ whatsappNumber }: TiendaoCalculatorProps) {
  const states: Array<{ quote: TiendaoQuote; show: string }> = [
    { quote: quoteTiendao({ customDomain: false }), show: 'group-has-checked/calc:hidden' },
    { quote: quoteTiendao({ customDomain: true }), show: 'hidden group-has-checked/calc:block' },
  ];

  return (
    <div className="group/calc grid gap-6 lg:grid-cols-[1fr_1.1fr]" data-calculator="">
      <fieldset className="rounded-card border border-line bg-white p-6 shadow-sm sm:p-8">
        <legend className="sr-only">Opciones de tu tienda</legend>
        <h3 className="text-lg font-bold text-brand-900">Configura tu tienda</h3>
        <p className="mt-2 text-muted">
          La app, el panel y el pedido por WhatsApp vienen incluidos. Solo decide si quieres tu propio
          dominio.
        </p>
        <label className="mt-6 flex cursor-pointer items-start gap-4 rounded-button border-2 border-line p-4 transition has-checked:border-accent-600 has-checked:bg-accent-100/40 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-500">
          <input
            type="checkbox"
            name="dominio-personalizado"
            className="mt-1 size-5 shrink-0 accent-accent-600 focus-visible:outline-none"
            aria-describedby="calc-dominio-detalle"
          />
          <span className="font-semibold text-ink">
            Dominio personalizado (+$25/año)
            <span id="calc-dominio-detalle" className="mt-1 block text-sm font-normal text-muted">
              Tu tienda en tu propio dominio, por ejemplo www.colmadolaesquina.com, en lugar del subdominio de
              Tiendao.
            </span>
          </span>
        </label>
      </fieldset>

      <div className="rounded-card bg-brand-900 p-6 text-white shadow-lg sm:p-8">
        {states.map(({ quote, show }) => (
          <div
            key={String(quote.customDomain)}
            className={show}
            data-summary={quote.customDomain ? 'con-dominio' : 'sin-dominio'}
          >
            <h3 className="text-lg font-bold">Resumen de tu inversión</h3>
            <dl className="mt-5 divide-y divide-white/15">
              <div className="flex items-baseline justify-between gap-4 py-3">
                <dt className="text-brand-100">Pago inicial (único)</dt>
                <dd className="text-3xl font-extrabold tabular-nums" data-field="inicial">
                  {money(quote.initial)}
                </dd>
              </div>
              <div className="flex items-baseline justify-between gap-4 py-3">
                <dt className="text-brand-100">Mensualidad</dt>
                <dd className="text-2xl font-bold tabular-nums" data-field="mensual">
                  {money(quote.monthly)}
                  <span className="text-base font-medium text-brand-100">/mes</span>
                </dd>
              </div>
              <div className="flex items-baseline justify-between gap-4 py-3">
                <dt className="text-brand-100">Dominio personalizado</dt>
                <dd className="font-semibold" data-field="dominio">
                  {quote.customDomainLabel}
                </dd>
              </div>
            </dl>
            <a
              href={whatsappLink(whatsappNumber, tiendaoWhatsappMessage(quote))}
              target="_blank"
              rel="noopener"
              className="mt-6 flex items-center justify-center gap-2 rounded-button bg-green-700 px-6 py-3.5 font-semibold text-white shadow transition hover:bg-green-800 focus-visible:outline-white"
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="currentColor">
                <path d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2zm0 18.2a8.2 8.2 0 0 1-4.2-1.2l-.3-.2-3 .8.8-2.9-.2-.3A8.2 8.2 0 1 1 12 20.2zm4.5-6.1c-.2-.1-1.5-.7-1.7-.8s-.4-.1-.6.1-.7.8-.8 1-.3.2-.5.1a6.7 6.7 0 0 1-3.3-2.9c-.3-.4.3-.4.7-1.3.1-.2 0-.3 0-.4l-.8-1.8c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 3 3 0 0 0-.9 2.2 5.2 5.2 0 0 0 1.1 2.8 11.9 11.9 0 0 0 4.6 4c1.7.7 2.4.8 3.2.7a2.8 2.8 0 0 0 1.8-1.3 2.3 2.3 0 0 0 .2-1.3c-.1-.1-.3-.2-.5-.3z" />
              </svg>
              Solicitar esta configuración
              <span className="sr-only"> (abre WhatsApp en una pestaña nueva)</span>
            </a>
            <p className="mt-3 text-center text-xs text-brand-100">
              Precios en dólares estadounidenses. El dominio propio se renueva a{' '}
              {money(TIENDAO_PRICING.customDomainPerYear)} por año.
            </p>
          </div>
        ))}
      </div>
    </div>
  );
}
