import { HELP_LINK, NAV_ITEMS, ROUTES, SUPPORT_LINK } from '../../routes';
import { MailIcon, PhoneIcon, PinIcon, SocialIcon } from './icons';
import LinkList from './LinkList';
import Logo from './Logo';
import { EmailAddress } from '../ui/KeepWhole';

export interface FooterProps {
  companyName: string;
  tagline: string;
  socialUrl: string;
  phone: string;
  email: string;
  address: string;
  year: number;
}

const PRODUCT_LINKS = [
  { href: ROUTES.productAdmcloud, label: 'AdmCloud · ERP en la nube' },
  { href: ROUTES.productRestaurantpe, label: 'Restaurant.pe · Punto de venta' },
  { href: ROUTES.productTiendao, label: 'Tiendao · Tienda en línea' },
  { href: ROUTES.clients, label: 'Nuestros clientes' },
];

/** Names the social network from its address, so the link says where it goes. */
function socialNetworkName(url: string): string {
  const host = new URL(url).hostname.replace(/^www\./, '');
  const known: Record<string, string> = {
    'instagram.com': 'Instagram',
    'facebook.com': 'Facebook',
    'linkedin.com': 'LinkedIn',
    'x.com': 'X',
    'twitter.com': 'X',
    'youtube.com': 'YouTube',
    'tiktok.com': 'TikTok',
  };
  return known[host] ?? 'redes sociales';
}

const headingClass = 'text-sm font-semibold tracking-wider text-white uppercase';
const linkClass = 'text-brand-100/85 transition-colors hover:text-white';
const listClass = 'mt-4 flex flex-col gap-2.5 text-sm';

export default function Footer({
  companyName,
  tagline,
  socialUrl,
  phone,
  email,
  address,
  year,
}: FooterProps) {
  const network = socialNetworkName(socialUrl);
  return (
    <footer className="relative overflow-hidden bg-brand-950 text-brand-100">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-32 -right-24 size-96 rounded-full bg-accent-500/10 blur-3xl"
      />
      <div className="relative mx-auto grid max-w-7xl gap-10 px-4 pt-14 pb-10 sm:px-6 md:grid-cols-2 lg:grid-cols-[1.3fr_0.8fr_1.1fr_1.5fr]">
        <div className="flex flex-col gap-4">
          <a href={ROUTES.home} className="w-fit rounded-button">
            <Logo companyName={companyName} tone="light" label=", ir al inicio" />
          </a>
          <p className="text-lg font-medium text-white">{tagline}</p>
          <p className="max-w-xs text-sm leading-relaxed text-brand-100/80">
            Implementamos ERP y punto de venta para empresas dominicanas: manufactura, hotelería, farmacias,
            comercios, restaurantes y firmas contables.
          </p>
          <a
            href={socialUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex w-fit items-center gap-2 rounded-button border border-white/15 px-3.5 py-2 text-sm font-semibold text-white transition-colors hover:border-accent-500 hover:bg-white/5"
          >
            <SocialIcon />
            Síguenos en {network}
            <span className="sr-only">(se abre en una pestaña nueva)</span>
          </a>
        </div>

        <nav aria-label="Pie de página">
          <h2 className={headingClass}>Navegación</h2>
          <LinkList
            items={[...NAV_ITEMS, SUPPORT_LINK, HELP_LINK]}
            listClassName={listClass}
            linkClassName={linkClass}
          />
        </nav>

        <div>
          <h2 className={headingClass}>Soluciones</h2>
          <LinkList items={PRODUCT_LINKS} listClassName={listClass} linkClassName={linkClass} />
        </div>

        <div>
          <h2 className={headingClass}>Contacto</h2>
          <address className="mt-4 flex flex-col gap-3.5 text-sm not-italic">
            <p className="flex gap-3 text-brand-100/85">
              <PinIcon className="mt-0.5 size-5 shrink-0 text-accent-500" />
              {address}
            </p>
            <a href={`tel:${phone.replace(/[^\d+]/g, '')}`} className={`flex gap-3 ${linkClass}`}>
              <PhoneIcon className="size-5 shrink-0 text-accent-500" />
              {phone}
            </a>
            <a href={`mailto:${email}`} className={`flex gap-3 ${linkClass}`}>
              <MailIcon className="size-5 shrink-0 text-accent-500" />
              <span className="min-w-0">
                <EmailAddress email={email} />
              </span>
            </a>
          </address>
        </div>
      </div>
      <div className="relative border-t border-white/10">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-6 text-sm text-brand-100/75 sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>
            © {year} {companyName}. Todos los derechos reservados.
          </p>
          <p>Santo Domingo, República Dominicana</p>
        </div>
      </div>
    </footer>
  );
}
