/**
 * Content of the Tiendao page (`/producto/tiendao`): hero, benefits, the owner's panel, features
 * carousel, prices with the investment calculator and the demo call to action. Rendered by
 * `src/pages/producto/tiendao.astro`; the prices come from `src/lib/tiendao-pricing.ts`.
 */
import logo from '../../../assets/logos/tiendao.svg';
import app from '../../../assets/products/tiendao-app.svg';
import s01 from '../../../assets/products/tiendao-01-catalogo.svg';
import s02 from '../../../assets/products/tiendao-02-carrito-whatsapp.svg';
import s03 from '../../../assets/products/tiendao-03-reportes.svg';
import s04 from '../../../assets/products/tiendao-04-mas-vendidos.svg';
import s05 from '../../../assets/products/tiendao-05-pedidos.svg';
import s06 from '../../../assets/products/tiendao-06-correo-envio.svg';
import s07 from '../../../assets/products/tiendao-07-cuenta-repedido.svg';
import s08 from '../../../assets/products/tiendao-08-ofertas.svg';
import s09 from '../../../assets/products/tiendao-09-imprimir-compras.svg';
import { TIENDAO_PRICING } from '../../../lib/tiendao-pricing.ts';
import type { ProductPageContent } from './types.ts';

export const TIENDAO_PAGE = {
  product: 'tiendao',
  seo: {
    title: 'Tiendao: la app de pedidos por WhatsApp para tu supermercado',
    description:
      'Tiendao: app web de marca blanca para supermercados y colmados. Tus clientes piden por WhatsApp desde tu catálogo. Desde $500 de instalación y $45 al mes.',
    image: app,
    category: 'Aplicación web de pedidos para supermercados',
    offer: {
      price: TIENDAO_PRICING.setup,
      description: `Pago único de $${TIENDAO_PRICING.setup} y $${TIENDAO_PRICING.monthly} al mes`,
      anchor: 'calculadora',
    },
  },
  hero: {
    glow: 'green',
    gap: 'gap-10',
    columns: 'lg:grid-cols-[1.1fr_1fr]',
    badge: { kind: 'eyebrow', text: 'Tiendao · Para supermercados y colmados' },
    title: 'Tiendao: tu supermercado vende por WhatsApp, con una app web propia',
    lead: 'Tiendao le da a tu negocio una tienda en línea con tu marca: tus clientes ven el catálogo, arman el carrito y te envían el pedido por WhatsApp. Tú lo administras todo desde un panel sencillo.',
    primaryAction: { kind: 'link', href: '#calculadora', label: 'Calcula tu inversión' },
    secondaryAction: { href: '#funcionalidades', label: 'Explora las funcionalidades' },
    picture: {
      image: app,
      alt: 'La app de Tiendao en un celular: tienda Súper El Ahorro con ofertas, productos y el botón Pedir por WhatsApp.',
      width: 800,
      height: 600,
      framed: true,
      onPhones: true,
    },
  },
  benefits: {
    heading: {
      id: 'beneficios',
      title: 'Lo que tus clientes van a disfrutar',
      lead: 'Una app web personalizada con el nombre, el logo y los colores de tu tienda.',
    },
    items: [
      {
        title: 'Catálogo en cualquier dispositivo',
        text: 'Tus productos con foto, precio y categoría, en el celular, la tablet o la computadora.',
      },
      {
        title: 'Carrito y pedido por WhatsApp',
        text: 'Agregan al carrito y envían el pedido listo a tu WhatsApp, sin llamadas ni notas de voz.',
      },
      {
        title: 'Sus compras recientes, a un toque',
        text: 'Desde su cuenta ven lo que compraron y lo repiten en segundos.',
      },
      {
        title: 'Aviso por correo cuando sale el pedido',
        text: 'Reciben un correo automático en cuanto confirmas que su pedido va en camino.',
      },
      {
        title: 'Ofertas y productos destacados',
        text: 'Ven tus promociones de la semana apenas entran a la tienda.',
      },
      {
        title: 'Sin registro y sin instalar nada',
        text: 'Tu tienda se abre con un enlace: nada que descargar, ninguna cuenta obligatoria para pedir.',
      },
    ],
    panel: {
      image: logo,
      alt: 'Logotipo de Tiendao',
      width: 330,
      height: 96,
      caption: 'Tu marca al frente, Tiendao por detrás.',
    },
  },
  ownerPanel: {
    heading: {
      id: 'experiencia',
      title: 'Una experiencia simple y funcional',
      lead: 'Para el cliente, comprar es tan fácil como escribirte por WhatsApp. Para ti, cada pedido llega ordenado y con el total calculado. Y desde el panel del propietario controlas la tienda completa:',
    },
    items: [
      {
        title: 'Carga tus productos',
        text: 'Sube productos, precios, fotos y categorías desde el panel, cuando quieras.',
      },
      {
        title: 'Reportes de uso y más vendidos',
        text: 'Visitas, pedidos y los productos que más salen, para comprar mejor.',
      },
      {
        title: 'Administra tus pedidos',
        text: 'Revisa cada pedido y confírmalo como «en camino» con un clic.',
      },
      {
        title: 'Ve e imprime las compras',
        text: 'Consulta el historial de cada cliente e imprime sus compras para despacho o cobro.',
      },
      {
        title: 'Crea ofertas y promociones',
        text: 'Publica descuentos y destacados que tus clientes ven al entrar.',
      },
    ],
    closing: {
      title: 'Sin tecnicismos',
      text: 'Nosotros configuramos el servidor, el dominio y la app. Tú cargas tus productos y empiezas a vender.',
    },
  },
  carousel: {
    anchor: 'funcionalidades',
    heading: {
      id: 'funcionalidades-titulo',
      title: 'Explora las funcionalidades',
      lead: 'Nueve funciones para tus clientes y para tu panel de administración.',
      leadGap: 'mt-3',
    },
    surface: false,
    label: 'Funcionalidades de Tiendao',
    slides: [
      {
        image: s01,
        caption: 'Catálogo visual',
        alt: 'Catálogo de un colmado en el celular, con buscador, categorías y fotos de productos.',
      },
      {
        image: s02,
        caption: 'Carrito y pedido por WhatsApp',
        alt: 'Carrito con tres productos y el pedido enviado como mensaje de WhatsApp a la tienda.',
      },
      {
        image: s03,
        caption: 'Reportes de uso',
        alt: 'Panel con visitas, pedidos y conversión de los últimos 30 días y su gráfico.',
      },
      {
        image: s04,
        caption: 'Productos más vendidos',
        alt: 'Ranking de los seis productos más vendidos con barras comparativas.',
      },
      {
        image: s05,
        caption: 'Administración de pedidos',
        alt: 'Lista de pedidos del día con estados nuevo, confirmado, en camino y entregado.',
      },
      {
        image: s06,
        caption: 'Notificación automática por correo al enviar',
        alt: 'Correo que avisa al cliente que su pedido va en camino.',
      },
      {
        image: s07,
        caption: 'Cuenta del cliente con re-pedido',
        alt: 'Cuenta del cliente con sus compras recientes y el botón Repetir en cada una.',
      },
      {
        image: s08,
        caption: 'Ofertas y promociones',
        alt: 'Banner de oferta 2×1 en jugos y productos con descuento y destacados.',
      },
      {
        image: s09,
        caption: 'Ver e imprimir compras de clientes',
        alt: 'Historial de compras de una clienta junto a una impresora imprimiendo el detalle.',
      },
    ],
    multi: {
      gap: 30,
      slideClassName: 'basis-[85%] sm:basis-1/2 lg:basis-1/3',
      hint: 'Desliza para ver más funcionalidades',
    },
  },
  pricing: {
    anchor: 'calculadora',
    heading: {
      id: 'calculadora-titulo',
      title: 'Calcula tu inversión',
      lead: 'Precios claros: un pago único para dejar tu tienda lista y una mensualidad fija.',
    },
    plans: [
      {
        title: `Pago único de $${TIENDAO_PRICING.setup}`,
        intro: 'Incluye:',
        items: [
          'Configuración técnica en un servidor en la nube',
          'Personalización con tu logo y tus colores',
          'Subdominio para tu tienda en el dominio de Tiendao',
          'Pedidos por WhatsApp',
          'Capacitación inicial (guía o video)',
          'Acceso al panel para cargar productos',
        ],
      },
      {
        title: `Mensualidad de $${TIENDAO_PRICING.monthly}/mes`,
        intro: 'Incluye:',
        items: [
          'Uso completo de la app',
          'Hosting y base de datos',
          'Subdominio con certificado SSL',
          'Soporte técnico de 1 hora al mes',
          'Actualizaciones menores',
        ],
      },
    ],
    extras: {
      title: 'Extras opcionales',
      intro: 'Solo si los necesitas:',
      items: [
        { name: 'Dominio propio', price: `+$${TIENDAO_PRICING.customDomainPerYear}/año` },
        { name: 'Soporte adicional', price: `$${TIENDAO_PRICING.extraSupportPerHour}/hora` },
        { name: 'Funcionalidades especiales', price: 'Cotización a solicitud' },
      ],
    },
  },
  callToAction: {
    headingId: 'demo',
    title: 'Mira Tiendao funcionando con tus productos',
    text: 'Agenda una demostración de 20 minutos y resolvemos tus dudas en vivo.',
    linkLabel: 'Solicitar una demostración',
  },
} satisfies ProductPageContent;
