/**
 * The three services (spec §3, "Service card") and how an implementation runs, step by step.
 */
import type { RevealAnimation } from './products.ts';

export type ServiceIcon = 'implementation' | 'development' | 'training';

/** Card background: a key of the palette below (tokens of global.css). */
export type ServiceTone = 'brand' | 'accent' | 'sun';

export interface Service {
  id: string;
  title: string;
  description: string;
  icon: ServiceIcon;
  background: ServiceTone;
  animation: RevealAnimation;
  /** Concrete deliverables, listed on /servicios. */
  highlights: readonly string[];
}

export const SERVICES: readonly Service[] = [
  {
    id: 'implementacion',
    title: 'Implementación Admcloud',
    description:
      'Implementamos el ERP y el punto de venta adaptados a tu operación: configuramos catálogos, impuestos, comprobantes fiscales y flujos de aprobación, y migramos tus datos sin detener el negocio.',
    icon: 'implementation',
    background: 'brand',
    animation: 'fade-right',
    highlights: [
      'Configuración de NCF y facturación electrónica',
      'Migración de clientes, suplidores e inventario',
      'Puesta en marcha acompañada en sitio o remota',
    ],
  },
  {
    id: 'desarrollos',
    title: 'Desarrollos',
    description:
      'Creamos lo que tu operación necesita y el sistema no trae de fábrica: reportes a la medida en SQL Server y plantillas de impresión en CSS/HTML y C# para facturas, cotizaciones y conduces.',
    icon: 'development',
    background: 'accent',
    animation: 'fade-up',
    highlights: [
      'Reportes personalizados en SQL Server',
      'Plantillas de impresión en CSS/HTML y C#',
      'Integraciones con tus otros sistemas',
    ],
  },
  {
    id: 'entrenamientos',
    title: 'Entrenamientos',
    description:
      'Capacitamos a tu equipo en todos los módulos del sistema, al nivel de cada persona: desde el cajero que factura por primera vez hasta el contador que cierra el mes y presenta a la DGII.',
    icon: 'training',
    background: 'sun',
    animation: 'fade-left',
    highlights: [
      'Sesiones por rol: ventas, compras, inventario y contabilidad',
      'Guías paso a paso y grabaciones para consulta',
      'Refuerzos para personal nuevo',
    ],
  },
];

export interface ImplementationStep {
  title: string;
  description: string;
  duration: string;
}

/** How an AdmCloud implementation runs (shown on /servicios). */
export const IMPLEMENTATION_STEPS: readonly ImplementationStep[] = [
  {
    title: 'Diagnóstico',
    description:
      'Visitamos tu empresa, entendemos cómo vendes, compras, facturas y cierras el mes, y levantamos los reportes que hoy usas para decidir.',
    duration: 'Semana 1',
  },
  {
    title: 'Diseño de la solución',
    description:
      'Definimos catálogo de cuentas, almacenes, listas de precios, secuencias de comprobantes y permisos por usuario. Te entregamos un plan con fechas y responsables.',
    duration: 'Semana 1-2',
  },
  {
    title: 'Configuración y migración',
    description:
      'Configuramos AdmCloud, cargamos tus clientes, suplidores, productos y saldos iniciales, y validamos contigo cada cifra antes de seguir.',
    duration: 'Semana 2-3',
  },
  {
    title: 'Capacitación por rol',
    description:
      'Entrenamos a cada área con sus propios datos: facturación, compras, inventario, cuentas por cobrar y contabilidad, con guías que se quedan en tu empresa.',
    duration: 'Semana 3-4',
  },
  {
    title: 'Salida en vivo',
    description:
      'Arrancamos en una fecha acordada, con nuestro equipo a tu lado durante los primeros días de facturación y el primer cierre.',
    duration: 'Semana 4',
  },
  {
    title: 'Acompañamiento',
    description:
      'Seguimos disponibles por soporte en español, revisamos el primer envío de formatos a la DGII y ajustamos reportes a medida que creces.',
    duration: 'Continuo',
  },
];
