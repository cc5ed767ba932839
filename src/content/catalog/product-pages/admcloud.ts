/**
 * Content of the AdmCloud page (`/producto/admcloud`): hero, features, video, comparison with other
 * systems. Rendered by `src/pages/producto/admcloud.astro`.
 */
import logo from '../../../assets/logos/admcloud.svg';
import contabilidad from '../../../assets/products/admcloud-contabilidad.svg';
import crm from '../../../assets/products/admcloud-crm.svg';
import facturacion from '../../../assets/products/admcloud-facturacion.svg';
import ia from '../../../assets/products/admcloud-ia.svg';
import poster from '../../../assets/products/video-admcloud.svg';
import { productById } from '../products.ts';
import type { ProductPageContent } from './types.ts';

const { name } = productById('admcloud');

export const ADMCLOUD_PAGE = {
  product: 'admcloud',
  seo: {
    title: 'AdmCloud: ERP en la nube con IA y facturación electrónica',
    description:
      'AdmCloud: ERP en la nube inteligente, simple, completo y flexible, con IA nativa y facturación electrónica e-CF. Contabilidad, CRM y reportes DGII.',
    image: contabilidad,
    category: 'ERP en la nube',
  },
  hero: {
    gap: 'gap-12',
    columns: 'lg:grid-cols-[1.05fr_1fr]',
    badge: { kind: 'logo', image: logo, alt: name, width: 146, height: 39 },
    title: 'El ERP inteligente, simple, completo y flexible, con IA y facturación electrónica nativas',
    lead: 'AdmCloud reúne contabilidad, ventas, inventario, CRM y reportes fiscales en la nube. Funciona desde cualquier navegador, emite tus e-CF ante la DGII sin conectores y trae un asistente de IA que entiende tus números.',
    highlights: { label: 'AdmCloud es', items: ['Inteligente', 'Simple', 'Completo', 'Flexible'] },
    primaryAction: { kind: 'booking' },
    secondaryAction: { href: '#comparacion', label: 'Compara con otros sistemas' },
    picture: {
      image: contabilidad,
      alt: 'Vista del tablero contable de AdmCloud con el estado de resultados y las ventas del año.',
      width: 800,
      height: 560,
      framed: true,
      onPhones: false,
    },
  },
  features: {
    heading: {
      id: 'intro',
      title: 'Tu empresa completa, en una sola plataforma',
      lead: 'Deja atrás el sistema contable por un lado, la facturación por otro y las hojas de cálculo en medio. AdmCloud conecta cada área de tu negocio, de la cotización al cierre contable, y se adapta a empresas de manufactura, distribución, servicios, farmacias, comercio y firmas de contadores. Lo implementamos, lo configuramos con tus datos y capacitamos a tu equipo.',
    },
    items: [
      {
        image: contabilidad,
        alt: 'Pantalla de AdmCloud con el estado de resultados: ingresos, costos, gastos, utilidad neta y gráfico de ventas mensuales.',
        title: 'Contabilidad al día, sin esfuerzo',
        text: 'Cada venta, compra y pago genera su asiento contable. Estados financieros, conciliación bancaria, cuentas por cobrar y por pagar, activos fijos y centros de costo, siempre cuadrados.',
      },
      {
        image: ia,
        alt: 'Asistente de inteligencia artificial de AdmCloud respondiendo cuánto se vendió en marzo frente a febrero, con un gráfico comparativo.',
        title: 'Inteligencia artificial nativa',
        text: 'Pregúntale a tus datos en español: ventas del mes, clientes que no compran desde hace tiempo, productos con poco margen. La IA vive dentro del ERP y responde con tus números reales.',
      },
      {
        image: facturacion,
        alt: 'Comprobante fiscal electrónico e-CF tipo 31 firmado y validado por la DGII, con código QR.',
        title: 'Facturación electrónica nativa',
        text: 'Emite e-CF firmados digitalmente y enviados a la DGII desde la misma factura, sin conectores externos. Notas de crédito, secuencias y formatos 606, 607 y 608 listos para presentar.',
      },
      {
        image: crm,
        alt: 'Tablero CRM de AdmCloud con oportunidades en las etapas prospecto, propuesta, negociación y ganado.',
        title: 'CRM e inventario integrados',
        text: 'Da seguimiento a prospectos y cotizaciones, convierte la cotización en factura con un clic y controla existencias por almacén. Ventas, compras, inventario y punto de venta comparten los mismos datos.',
      },
    ],
  },
  video: {
    anchor: 'video',
    heading: {
      id: 'video-titulo',
      title: 'AdmCloud en tres minutos',
      lead: 'Mira cómo se registra una venta, se emite el e-CF y se consulta el resultado del mes.',
    },
    videoTitle: 'AdmCloud en 3 minutos',
    poster,
  },
  comparison: {
    anchor: 'comparacion',
    heading: {
      id: 'comparacion-titulo',
      title: 'AdmCloud frente a otros sistemas',
      lead: 'Toca o pasa el cursor sobre cada característica para ver el detalle.',
    },
    productName: name,
    othersName: 'Otros sistemas',
    rows: [
      {
        feature: 'Límite de facturación por plan',
        tooltip:
          'El precio de tu plan no cambia con el volumen de facturas que emites cada mes: factura todo lo que vendas.',
        product: { verdict: 'yes', text: 'Sin límite de facturas' },
        others: { verdict: 'no', text: 'Cobran más al facturar más' },
      },
      {
        feature: 'Integración con DGII',
        tooltip: 'Conexión directa con la DGII para obtener números de comprobante fiscal (NCF) válidos.',
        product: { verdict: 'yes', text: 'Conexión directa' },
        others: { verdict: 'partial', text: 'Manual o con terceros' },
      },
      {
        feature: 'Soporte en República Dominicana',
        tooltip: 'Soporte humano en español, con conocimiento del entorno fiscal dominicano.',
        product: { verdict: 'yes', text: 'Equipo local en español' },
        others: { verdict: 'no', text: 'Desde el extranjero' },
      },
      {
        feature: 'Cumplimiento fiscal local',
        tooltip: 'Adaptado a los formatos fiscales locales: 606, 607, 608, IT-1 y demás reportes de la DGII.',
        product: { verdict: 'yes', text: '606, 607, 608 e IT-1' },
        others: { verdict: 'partial', text: 'Ajustes a la medida' },
      },
      {
        feature: 'Capacitación incluida',
        tooltip: 'Capacitación completa para tu equipo, con guías paso a paso.',
        product: { verdict: 'yes', text: 'Completa, con guías' },
        others: { verdict: 'no', text: 'Con costo adicional' },
      },
      {
        feature: 'Facturación electrónica',
        tooltip: 'Comprobantes fiscales electrónicos (e-CF) con firma digital válida ante la DGII.',
        product: { verdict: 'yes', text: 'e-CF nativa' },
        others: { verdict: 'partial', text: 'Módulo aparte' },
      },
    ],
    closing: 'Te mostramos AdmCloud con los procesos de tu empresa.',
  },
} satisfies ProductPageContent;
