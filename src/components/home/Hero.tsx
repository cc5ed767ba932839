import { ROUTES } from '../../routes';
import ContactActions from './ContactActions';
import type { ImageSource } from '../ui/image';
import { LineIcon } from '../ui/LineIcon';

export interface HeroProps {
  tagline: string;
  bookingUrl: string;
  /** The two product logos of the spec: the cloud accounting system and the restaurant system. */
  logos: readonly { name: string; caption: string; image: ImageSource }[];
  /** Id of the recommendation `<dialog>` the '¿No sabes qué sistema necesitas?' button opens. */
  recommendationDialogId: string;
}

/** Full-screen hero (viewport height minus the fixed header). No JavaScript: the dialog opens by Invoker Commands. */
export default function Hero({ tagline, bookingUrl, logos, recommendationDialogId }: HeroProps) {
  return (
    <section
      id="inicio"
      aria-labelledby="hero-titulo"
      className="relative isolate flex min-h-[calc(100svh-var(--spacing-header))] items-center overflow-hidden bg-brand-950 text-white"
    >
      <HeroBackdrop />
      <div className="mx-auto grid w-full max-w-7xl items-center gap-12 px-4 py-14 sm:px-6 lg:grid-cols-[1.15fr_1fr] lg:gap-16 lg:px-8 lg:py-20">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-3 py-1 text-sm font-medium text-accent-100">
            <span aria-hidden="true" className="size-2 rounded-full bg-accent-500" />
            Consultoría tecnológica en República Dominicana
          </p>
          <h1
            id="hero-titulo"
            className="mt-6 text-4xl leading-[1.08] font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl"
          >
            Transformamos tu Negocio con <span className="text-accent-500">Tecnología</span>
          </h1>
          <p className="mt-6 max-w-xl text-lg text-pretty text-brand-100 sm:text-xl">{tagline}</p>
          <ContactActions
            bookingUrl={bookingUrl}
            className="mt-9 flex flex-col gap-3 sm:flex-row sm:flex-wrap"
          />
          <button
            type="button"
            commandfor={recommendationDialogId}
            command="show-modal"
            aria-haspopup="dialog"
            className="mt-6 inline-flex min-h-11 items-center gap-2 rounded-full bg-white/10 px-4 py-2 text-sm font-semibold text-white ring-1 ring-white/25 transition-colors hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            <LineIcon className="size-5 text-accent-500" weight="1.8" box={20}>
              <circle cx="10" cy="10" r="8" />
              <path d="M7.8 7.6a2.3 2.3 0 1 1 3.2 2.1c-.6.3-1 .8-1 1.5v.3M10 14.2v.1" />
            </LineIcon>
            ¿No sabes qué sistema necesitas?
          </button>
        </div>

        <div className="relative">
          <p className="text-sm font-semibold tracking-wider text-brand-100 uppercase">
            Sistemas que implementamos
          </p>
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-1">
            {logos.map((logo) => (
              <li key={logo.name}>
                <a
                  href={ROUTES.products}
                  className="group flex items-center gap-5 rounded-card bg-white p-5 text-ink shadow-xl shadow-brand-950/40 ring-1 ring-white/10 transition-transform duration-200 hover:-translate-y-0.5 focus-visible:outline-white motion-reduce:transition-none motion-reduce:hover:translate-y-0"
                >
                  <img
                    src={logo.image.src}
                    width={logo.image.width}
                    height={logo.image.height}
                    alt={logo.name}
                    className="h-10 w-auto sm:h-11"
                    decoding="async"
                  />
                  <span className="ml-auto text-right text-sm text-muted">{logo.caption}</span>
                </a>
              </li>
            ))}
          </ul>
          <dl className="mt-8 grid grid-cols-3 gap-4 border-t border-white/10 pt-6">
            <HeroFact value="15+" label="años de experiencia" />
            <HeroFact value="7" label="industrias atendidas" />
            <HeroFact value="100%" label="soporte local en español" />
          </dl>
        </div>
      </div>
    </section>
  );
}

function HeroFact({ value, label }: { value: string; label: string }) {
  return (
    <div className="flex flex-col-reverse">
      <dt className="mt-1 text-sm text-brand-100">{label}</dt>
      <dd className="text-2xl font-bold text-white sm:text-3xl">{value}</dd>
    </div>
  );
}

/** Decorative backdrop: a soft grid, two glows and a network of nodes. */
function HeroBackdrop() {
  return (
    <svg
      aria-hidden="true"
      className="absolute inset-0 -z-10 size-full"
      preserveAspectRatio="xMidYMid slice"
      viewBox="0 0 1440 900"
    >
      <defs>
        <radialGradient id="hero-glow-a" cx="0.85" cy="0.15" r="0.6">
          <stop offset="0" stopColor="#14b8a6" stopOpacity="0.35" />
          <stop offset="1" stopColor="#14b8a6" stopOpacity="0" />
        </radialGradient>
        <radialGradient id="hero-glow-b" cx="0.05" cy="0.95" r="0.6">
          <stop offset="0" stopColor="#2f6fd6" stopOpacity="0.45" />
          <stop offset="1" stopColor="#2f6fd6" stopOpacity="0" />
        </radialGradient>
        <pattern id="hero-grid" width="56" height="56" patternUnits="userSpaceOnUse">
          <path d="M56 0H0v56" fill="none" stroke="#ffffff" strokeOpacity="0.05" />
        </pattern>
      </defs>
      <rect width="1440" height="900" fill="url(#hero-grid)" />
      <rect width="1440" height="900" fill="url(#hero-glow-a)" />
      <rect width="1440" height="900" fill="url(#hero-glow-b)" />
      <g stroke="#5eead4" strokeOpacity="0.18" strokeWidth="1.2" fill="none">
        <path d="M880 120L1060 220 1250 160 1380 300M1060 220L1010 420 1200 520 1380 300M1010 420L820 520" />
      </g>
      <g fill="#5eead4" fillOpacity="0.5">
        <circle cx="880" cy="120" r="4" />
        <circle cx="1060" cy="220" r="5" />
        <circle cx="1250" cy="160" r="3.5" />
        <circle cx="1380" cy="300" r="4.5" />
        <circle cx="1010" cy="420" r="4" />
        <circle cx="1200" cy="520" r="5" />
        <circle cx="820" cy="520" r="3.5" />
      </g>
    </svg>
  );
}
