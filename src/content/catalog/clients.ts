/**
 * The client logo wall (18 companies, spec §9), the industries we serve and short testimonials.
 * Every company here is fictional; the logos are original artwork in src/assets/clients/. Since issue 23
 * the wall itself lives in the database ('Logos de clientes'): this list is what the one-time import
 * on first start writes (src/server/content/site-import.ts), and the industries section's names.
 * Plain data (no image imports), so the server reads it outside the build.
 */

export type Industry =
  | 'Manufactura'
  | 'Hotelería'
  | 'Firmas de contadores'
  | 'Farmacias'
  | 'Comercio minorista'
  | 'Restaurantes'
  | 'Empresas administrativas';

export interface Client {
  name: string;
  industry: Industry;
  /** The logo's file in src/assets/clients/. */
  file: string;
}

export const CLIENTS: readonly Client[] = [
  { name: 'Cibao Plast', industry: 'Manufactura', file: 'cibao-plast.svg' },
  { name: 'Brisas de Bávaro', industry: 'Hotelería', file: 'brisas-de-bavaro.svg' },
  { name: 'Peralta & Asociados', industry: 'Firmas de contadores', file: 'peralta-asociados.svg' },
  { name: 'Farmacia San Rafael', industry: 'Farmacias', file: 'farmacia-san-rafael.svg' },
  { name: 'Supermercado La Cosecha', industry: 'Comercio minorista', file: 'la-cosecha.svg' },
  { name: 'Sabor Criollo', industry: 'Restaurantes', file: 'sabor-criollo.svg' },
  { name: 'Aceros Quisqueya', industry: 'Manufactura', file: 'aceros-quisqueya.svg' },
  { name: 'Casa Colonial Suites', industry: 'Hotelería', file: 'casa-colonial.svg' },
  { name: 'Fiscal Caribe', industry: 'Firmas de contadores', file: 'fiscal-caribe.svg' },
  { name: 'FarmaVida', industry: 'Farmacias', file: 'farmavida.svg' },
  { name: 'Ferretería El Progreso', industry: 'Comercio minorista', file: 'ferreteria-el-progreso.svg' },
  { name: 'La Parrilla de Gazcue', industry: 'Restaurantes', file: 'la-parrilla-de-gazcue.svg' },
  { name: 'Empaques Ozama', industry: 'Manufactura', file: 'empaques-ozama.svg' },
  { name: 'Samaná Bay Eco Lodge', industry: 'Hotelería', file: 'samana-bay-lodge.svg' },
  { name: 'Núñez & Báez', industry: 'Firmas de contadores', file: 'nunez-baez.svg' },
  { name: 'Botica del Pueblo', industry: 'Farmacias', file: 'botica-del-pueblo.svg' },
  { name: 'Almacenes Duarte', industry: 'Comercio minorista', file: 'almacenes-duarte.svg' },
  { name: 'Café Montaña Jarabacoa', industry: 'Restaurantes', file: 'cafe-montana.svg' },
];

export interface IndustryInfo {
  name: Industry;
  description: string;
}

export const INDUSTRIES: readonly IndustryInfo[] = [
  {
    name: 'Manufactura',
    description:
      'Costeo de producción, órdenes de trabajo, materia prima y producto terminado en el mismo inventario.',
  },
  {
    name: 'Hotelería',
    description: 'Puntos de venta de bares y restaurantes del hotel conectados a la contabilidad central.',
  },
  {
    name: 'Firmas de contadores',
    description:
      'Varias empresas en una sola cuenta, formatos 606 y 607 y cierres mensuales sin hojas de cálculo.',
  },
  {
    name: 'Farmacias',
    description: 'Lotes y fechas de vencimiento, ventas a seguros y control de inventario por sucursal.',
  },
  {
    name: 'Comercio minorista',
    description: 'Facturación rápida en caja, listas de precios, ofertas y pedidos en línea con Tiendao.',
  },
  {
    name: 'Restaurantes',
    description: 'Mesas, comandas a cocina, delivery y recetas que descuentan el inventario en cada venta.',
  },
  {
    name: 'Empresas administrativas',
    description: 'Cuentas por cobrar y por pagar, presupuestos y reportes gerenciales al día.',
  },
];

export interface Testimonial {
  quote: string;
  author: string;
  role: string;
  company: string;
}

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    quote:
      'Pasamos de cerrar el mes en diez días a cerrarlo en tres. El 606 y el 607 salen del sistema sin tocar una hoja de Excel.',
    author: 'Marisol Peralta',
    role: 'Socia directora',
    company: 'Peralta & Asociados',
  },
  {
    quote:
      'Con Restaurant.pe las comandas llegan a cocina al instante y el cuadre de caja de la noche ya no es una pelea. Nos entrenaron a todo el personal en una semana.',
    author: 'Julio Santana',
    role: 'Gerente general',
    company: 'La Parrilla de Gazcue',
  },
  {
    quote:
      'Nos migraron cinco años de inventario con lotes y vencimientos sin cerrar una sola sucursal. El soporte contesta en español y conoce la DGII.',
    author: 'Ana Lucía Rosario',
    role: 'Gerente de operaciones',
    company: 'Farmacia San Rafael',
  },
];
