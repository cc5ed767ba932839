/**
 * The client logo wall (18 companies, spec §9), the industries we serve and short testimonials.
 * Every company here is fictional; the logos are original artwork in src/assets/clients/.
 */
import aceros from '../../assets/clients/aceros-quisqueya.svg';
import almacenes from '../../assets/clients/almacenes-duarte.svg';
import botica from '../../assets/clients/botica-del-pueblo.svg';
import brisas from '../../assets/clients/brisas-de-bavaro.svg';
import cafe from '../../assets/clients/cafe-montana.svg';
import casaColonial from '../../assets/clients/casa-colonial.svg';
import cibao from '../../assets/clients/cibao-plast.svg';
import empaques from '../../assets/clients/empaques-ozama.svg';
import sanRafael from '../../assets/clients/farmacia-san-rafael.svg';
import farmavida from '../../assets/clients/farmavida.svg';
import ferreteria from '../../assets/clients/ferreteria-el-progreso.svg';
import fiscal from '../../assets/clients/fiscal-caribe.svg';
import cosecha from '../../assets/clients/la-cosecha.svg';
import parrilla from '../../assets/clients/la-parrilla-de-gazcue.svg';
import nunez from '../../assets/clients/nunez-baez.svg';
import peralta from '../../assets/clients/peralta-asociados.svg';
import sabor from '../../assets/clients/sabor-criollo.svg';
import samana from '../../assets/clients/samana-bay-lodge.svg';

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
  logo: ImageMetadata;
}

export const CLIENTS: readonly Client[] = [
  { name: 'Cibao Plast', industry: 'Manufactura', logo: cibao },
  { name: 'Brisas de Bávaro', industry: 'Hotelería', logo: brisas },
  { name: 'Peralta & Asociados', industry: 'Firmas de contadores', logo: peralta },
  { name: 'Farmacia San Rafael', industry: 'Farmacias', logo: sanRafael },
  { name: 'Supermercado La Cosecha', industry: 'Comercio minorista', logo: cosecha },
  { name: 'Sabor Criollo', industry: 'Restaurantes', logo: sabor },
  { name: 'Aceros Quisqueya', industry: 'Manufactura', logo: aceros },
  { name: 'Casa Colonial Suites', industry: 'Hotelería', logo: casaColonial },
  { name: 'Fiscal Caribe', industry: 'Firmas de contadores', logo: fiscal },
  { name: 'FarmaVida', industry: 'Farmacias', logo: farmavida },
  { name: 'Ferretería El Progreso', industry: 'Comercio minorista', logo: ferreteria },
  { name: 'La Parrilla de Gazcue', industry: 'Restaurantes', logo: parrilla },
  { name: 'Empaques Ozama', industry: 'Manufactura', logo: empaques },
  { name: 'Samaná Bay Eco Lodge', industry: 'Hotelería', logo: samana },
  { name: 'Núñez & Báez', industry: 'Firmas de contadores', logo: nunez },
  { name: 'Botica del Pueblo', industry: 'Farmacias', logo: botica },
  { name: 'Almacenes Duarte', industry: 'Comercio minorista', logo: almacenes },
  { name: 'Café Montaña Jarabacoa', industry: 'Restaurantes', logo: cafe },
];

export interface IndustryInfo {
  name: Industry;
  description: string;
}

export const INDUSTRIES: readonly IndustryInfo[] = [
  { name: 'Manufactura', description: 'Costeo de producción, órdenes de trabajo, materia prima y producto terminado en el mismo inventario.' },
  { name: 'Hotelería', description: 'Puntos de venta de bares y restaurantes del hotel conectados a la contabilidad central.' },
  { name: 'Firmas de contadores', description: 'Varias empresas en una sola cuenta, formatos 606 y 607 y cierres mensuales sin hojas de cálculo.' },
  { name: 'Farmacias', description: 'Lotes y fechas de vencimiento, ventas a seguros y control de inventario por sucursal.' },
  { name: 'Comercio minorista', description: 'Facturación rápida en caja, listas de precios, ofertas y pedidos en línea con Tiendao.' },
  { name: 'Restaurantes', description: 'Mesas, comandas a cocina, delivery y recetas que descuentan el inventario en cada venta.' },
  { name: 'Empresas administrativas', description: 'Cuentas por cobrar y por pagar, presupuestos y reportes gerenciales al día.' },
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
