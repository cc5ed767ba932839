import { whatsappLink } from '../../lib/whatsapp';
export interface WhatsAppFloatProps {
  /** Digits with country code, as `wa.me` expects. */
  number: string;
}

/** Floating click-to-chat link, bottom-right on every public page. */
export default function WhatsAppFloat({ number }: WhatsAppFloatProps) {
  return (
    <aside aria-label="Chat por WhatsApp">
      <a
        href={whatsappLink(number)}
        target="_blank"
        rel="noopener noreferrer"
        aria-label="Escríbenos por WhatsApp (se abre en una pestaña nueva)"
        title="Escríbenos por WhatsApp"
        className="whatsapp-float fixed right-4 bottom-4 z-30 grid size-14 place-items-center rounded-full bg-[#25d366] text-white shadow-lg shadow-black/20 ring-4 ring-white transition-transform hover:scale-105 focus-visible:outline-offset-4 sm:right-6 sm:bottom-6"
      >
        <svg viewBox="0 0 32 32" className="size-8" aria-hidden="true" focusable="false">
          <path
            d="M16 4.2A11.8 11.8 0 0 0 5.9 22.1L4.3 27.7l5.8-1.5A11.8 11.8 0 1 0 16 4.2z"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.3"
            strokeLinejoin="round"
          />
          <path
            d="M12.1 10.2c.5-.5 1.2-.4 1.5.1l1.4 2.1c.3.4.2 1-.1 1.3l-.8.8c.8 1.6 2 2.8 3.6 3.6l.8-.8c.4-.3.9-.4 1.3-.1l2.1 1.4c.5.3.6 1 .1 1.5l-1 1c-.8.8-2 1.1-3.1.7-3.1-1.2-5.6-3.7-6.8-6.8-.4-1.1-.1-2.3.7-3.1z"
            fill="currentColor"
          />
        </svg>
      </a>
    </aside>
  );
}
