import { ROUTES } from '../../routes';
import { ButtonLink } from '../ui/Button';

/**
 * The two calls to action of the home page's hero and closing band: write to us, or book a presentation.
 * Primary buttons: the what's-new toast never covers them (`data-keep-clear`).
 */
export default function ContactActions({ bookingUrl, className }: { bookingUrl: string; className: string }) {
  return (
    <div className={className} data-keep-clear="">
      <ButtonLink href={ROUTES.contact} variant="accent" size="lg">
        Contáctanos Hoy
      </ButtonLink>
      <ButtonLink href={bookingUrl} variant="outline-light" size="lg" external>
        Agendar Presentación
      </ButtonLink>
    </div>
  );
}
