/**
 * Content of the Restaurant.pe page (`/producto/restaurantpe`): hero, tour carousel, the three pillars,
 * video and the closing call to action. Rendered by `src/pages/producto/restaurantpe.astro`.
 */
import logo from '../../../assets/logos/restaurantpe.svg';
import b01 from '../../../assets/products/restaurantpe-01-punto-de-venta.svg';
import b02 from '../../../assets/products/restaurantpe-02-mesas.svg';
import b03 from '../../../assets/products/restaurantpe-03-comandas.svg';
import b04 from '../../../assets/products/restaurantpe-04-inventario.svg';
import b05 from '../../../assets/products/restaurantpe-05-facturacion-dgii.svg';
import b06 from '../../../assets/products/restaurantpe-06-reportes.svg';
import b07 from '../../../assets/products/restaurantpe-07-delivery.svg';
import b08 from '../../../assets/products/restaurantpe-08-caja.svg';
import b09 from '../../../assets/products/restaurantpe-09-sucursales.svg';
import b10 from '../../../assets/products/restaurantpe-10-app-meseros.svg';
import hero from '../../../assets/products/restaurantpe-hero.svg';
import poster from '../../../assets/products/video-restaurantpe.svg';
import { productById } from '../products.ts';
import type { ProductPageContent } from './types.ts';

const { name } = productById('restaurantpe');

export const RESTAURANTPE_PAGE = {
  product: 'restaurantpe',
  seo: {
    title: 'Restaurant.pe: punto de venta y gestión para restaurantes',
    description:
      'Restaurant.pe: punto de venta y gestión para restaurantes en República Dominicana. Mesas, comandas a cocina, inventario por receta, e-CF ante la DGII y reportes.',
    image: b01,
    category: 'Software de punto de venta para restaurantes',
  },
  hero: {
    glow: 'coral',
    gap: 'gap-10',
    columns: 'lg:grid-cols-[1.15fr_1fr]',
    badge: { kind: 'logo', image: logo, alt: name, width: 156, height: 38 },
    title: 'El punto de venta que pone tu restaurante en orden',
    lead: 'Mesas, comandas, inventario, facturación electrónica y reportes en un solo sistema pensado para restaurantes, cafeterías y bares de República Dominicana.',
    highlights: {
      label: 'Lo que incluye',
      items: [
        'Mesas y comandas',
        'Inventario por receta',
        'e-CF ante la DGII',
        'Reportes diarios',
        'Multisucursal',
      ],
    },
    primaryAction: { kind: 'booking' },
    secondaryAction: { href: '#video', label: 'Ver el video' },
    picture: {
      image: hero,
      alt: 'Punto de venta de Restaurant.pe con la cuenta de la mesa 7, una comanda lista en cocina y la app de meseros en un celular.',
      width: 800,
      height: 600,
      framed: false,
      onPhones: false,
    },
  },
  carousel: {
    heading: {
      id: 'recorrido',
      title: 'Restaurant.pe por dentro',
      lead: 'Diez funciones que usarás desde el primer servicio.',
      leadGap: 'mt-2',
    },
    surface: true,
    label: 'Funciones de Restaurant.pe',
    slides: [
      {
        image: b01,
        alt: 'Punto de venta: cobra en segundos en cualquier mesa. Pantalla táctil, cuentas divididas y pago en efectivo, tarjeta o transferencia.',
      },
      {
        image: b02,
        alt: 'Mapa de mesas: el salón de un vistazo, con mesas libres, ocupadas y reservadas en tiempo real.',
      },
      {
        image: b03,
        alt: 'Comandas a cocina: cada pedido llega directo a la pantalla de cocina con el tiempo de cada orden.',
      },
      {
        image: b04,
        alt: 'Inventario y recetas: descarga automática por receta, mermas y alertas de stock mínimo.',
      },
      {
        image: b05,
        alt: 'Facturación electrónica: comprobantes e-CF firmados y válidos ante la DGII, con código QR en cada ticket.',
      },
      {
        image: b06,
        alt: 'Reportes: ventas por hora, plato, mesero y sucursal, con ticket promedio y mesas atendidas.',
      },
      {
        image: b07,
        alt: 'Delivery y para llevar: pedidos de salón, delivery y pick-up en una sola cola con su estado en vivo.',
      },
      {
        image: b08,
        alt: 'Caja y turnos: cierre de caja por forma de pago, propinas y diferencias a la vista del gerente.',
      },
      {
        image: b09,
        alt: 'Multisucursal: menús, precios e inventario centralizados, con reportes por local.',
      },
      {
        image: b10,
        alt: 'App para meseros: las órdenes se toman en la mesa desde el celular y se envían a cocina.',
      },
    ],
  },
  pillars: {
    heading: { id: 'sistema', title: 'Todo tu restaurante en un solo sistema' },
    items: [
      {
        title: 'Salón y cocina, conectados',
        text: 'Restaurant.pe organiza el servicio desde que el cliente se sienta: el mapa de mesas muestra qué está libre, ocupado o reservado; el mesero toma la orden en la mesa desde el celular y la comanda llega al instante a la pantalla o impresora de cocina y de bar, sin papelitos ni carreras. Cuentas divididas, cambios de mesa, propinas y pedidos de delivery o para llevar se manejan en la misma pantalla.',
      },
      {
        title: 'Inventario y recetas bajo control',
        text: 'Cada plato tiene su receta con ingredientes y cantidades, así que cada venta descuenta del inventario lo que realmente se usó. Sabrás cuánto te cuesta cada mofongo o cada cóctel, recibirás alertas cuando un insumo llegue al mínimo y podrás registrar compras, mermas y traslados entre almacenes y sucursales sin hojas de cálculo paralelas.',
      },
      {
        title: 'Facturación electrónica y reportes',
        text: 'El sistema emite comprobantes fiscales electrónicos (e-CF) válidos ante la DGII, con firma digital y código QR, y te deja listos los datos para tus reportes fiscales. Al cierre de cada turno tienes el cuadre de caja por forma de pago, y cada mañana los reportes de ventas por hora, plato, mesero y sucursal para decidir con números y no con corazonadas.',
      },
    ],
  },
  video: {
    anchor: 'video',
    heading: {
      id: 'video-titulo',
      title: 'Míralo en acción',
      lead: 'Un recorrido de tres minutos por el punto de venta, la cocina y los reportes.',
    },
    videoTitle: 'Restaurant.pe en acción',
    poster,
  },
  callToAction: {
    title: '¿Lo vemos con tu menú?',
    text: 'En 30 minutos te mostramos cómo quedaría tu restaurante, sin compromiso.',
  },
} satisfies ProductPageContent;
